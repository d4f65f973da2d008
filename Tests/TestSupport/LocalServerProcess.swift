import DevelopmentSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server run as a real child process on 127.0.0.1, stopped by ``stop()``.
public final class LocalServerProcess {
    public let port: UInt16
    private let process = Process()
    /// The server's output goes to a file, not a pipe: nothing reads a pipe while the server runs, and a chatty
    /// server (moto logs every request) would fill it and stop answering.
    private let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("server-\(UUID()).log").path

    /// Starts `arguments` (looked up on PATH) and waits until the port accepts connections.
    /// Throws with the process's output when it exits first or does not listen within `startTimeout`.
    public init(arguments: [String], port: UInt16, environment: [String: String] = [:], startTimeout: Duration = .seconds(30)) throws {
        self.port = port
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath)
        else {
            throw StartFailure(command: arguments[0], output: "could not create its log file \(outputPath)")
        }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = ContinuousClock.now + startTimeout
        // Started means this process listens on the port: another server that already listens there would accept
        // connections too, while this one fails to bind and exits.
        while !Self.listens(processID: process.processIdentifier, port: port) {
            guard process.isRunning else {
                throw StartFailure(command: arguments[0], output: drainOutput())
            }
            guard ContinuousClock.now < deadline else {
                stop()
                throw StartFailure(command: arguments[0], output: "no connection accepted on port \(port) within \(startTimeout)")
            }
            usleep(50_000)
        }
    }

    /// Kills the server. SIGKILL, not SIGTERM: children of a test process start with SIGTERM blocked (libdispatch
    /// blocks it on its worker threads, and a spawned process inherits the mask), so SIGTERM would never arrive.
    public func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    private func drainOutput() -> String {
        process.waitUntilExit()
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let command: String
        public let output: String
        public var description: String { "\(command) did not start: \(output)" }
    }

    /// A port on 127.0.0.1 that nothing is bound to right now, below the kernel's ephemeral range and never given
    /// twice in this process (`FreePort`); 0 when none could be found.
    public static func freePort() -> UInt16 {
        UInt16(FreePort.find() ?? 0)
    }

    /// True when the process holds a socket listening on `port` (on any address), read from `/proc`; where there is
    /// no `/proc`, when anything accepts connections on the port.
    static func listens(processID: Int32, port: UInt16) -> Bool {
        #if os(Linux)
        let listeners = listeningSockets(port: port)
        guard !listeners.isEmpty else { return false }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(processID)/fd")) ?? []
        return descriptors.contains { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/fd/\(descriptor)"))
                .map(listeners.contains) ?? false
        }
        #else
        return accepts(port: port)
        #endif
    }

    /// The sockets listening on `port`, as their descriptors' links read (`socket:[inode]`), from `/proc/net/tcp`
    /// and `tcp6`.
    private static func listeningSockets(port: UInt16) -> Set<String> {
        let hexPort = String(format: "%04X", port)
        var sockets = Set<String>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: `/proc` files report a size of 0, and a reader that trusts the size gets one page.
            guard let data = try? FileHandle(forReadingAtPath: table)?.readToEnd() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1].hasSuffix(":" + hexPort), fields[3] == "0A" else { continue }
                sockets.insert("socket:[\(fields[9])]")
            }
        }
        return sockets
    }

    public static func accepts(port: UInt16) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                connect(socketFD, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
