import DevelopmentSupport
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The servers the tests start on loopback: a server that could not take its port is reported as not started rather
/// than mistaken for whatever listens there. (The ports themselves, from `FreePort`, are checked in `FreePortTests`.)
struct LocalServerProcessTests {
    @Test func aServerWhosePortIsTakenIsNotStarted() throws {
        let port = LocalServerProcess.freePort()
        let occupant = try listen(on: port)
        defer { close(occupant) }
        // The occupant accepts connections on the port; the server cannot bind it and exits.
        let server = """
            import socket, time
            s = socket.socket(); s.bind(("127.0.0.1", \(port))); s.listen(); time.sleep(30)
            """
        #expect(throws: LocalServerProcess.StartFailure.self) {
            let process = try LocalServerProcess(arguments: ["python3", "-c", server], port: port, startTimeout: .seconds(10))
            process.stop()
        }
    }

    @Test func aServerThatListensIsStarted() throws {
        let port = LocalServerProcess.freePort()
        let server = """
            import socket, time
            s = socket.socket(); s.bind(("127.0.0.1", \(port))); s.listen(); time.sleep(30)
            """
        let process = try LocalServerProcess(arguments: ["python3", "-c", server], port: port, startTimeout: .seconds(10))
        #expect(LocalServerProcess.accepts(port: port))
        process.stop()
    }

    private func listen(on port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        let listening = bound && Glibc.listen(descriptor, 1) == 0
        if !listening { close(descriptor) }
        try #require(listening, "could not listen on 127.0.0.1:\(port)")
        return descriptor
    }
}
