import Foundation
import Invoker
import Platform
import Testing

/// Lines a command wrote, captured instead of printed.
final class CapturedConsole: Sendable {
    private let lines = PosixLock<(output: [String], diagnostics: [String])>(([], []))

    var console: Console {
        Console(
            output: { line in self.lines.withLock { $0.output.append(line) } },
            diagnostics: { line in self.lines.withLock { $0.diagnostics.append(line) } })
    }

    var output: String { lines.withLock { $0.output.joined(separator: "\n") } }
    var diagnostics: String { lines.withLock { $0.diagnostics.joined(separator: "\n") } }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("invoker-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes a file (executable when asked) and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String, executable: Bool = false) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path) }
        return path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
}

/// The executables `swift build` put next to the test bundle.
enum BuiltProducts {
    static var directory: URL {
        Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of a built executable; fails the test clearly when it is missing.
    static func executable(_ name: String) throws -> String {
        var candidate = directory
        // The bundle may sit in a nested directory (…/debug/X.xctest/Contents/MacOS on Darwin).
        for _ in 0..<4 {
            let path = candidate.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
            candidate = candidate.deletingLastPathComponent()
        }
        throw TestFailure("\(name) is not built next to the test bundle (\(directory.path)): run `swift build` before `swift test`")
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A finished process: its status and what it wrote.
struct ProcessOutput {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs an executable to the end (killed after `timeout`), feeding `input` to its standard input.
func run(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
    timeout: Duration = .seconds(60)
) async throws -> ProcessOutput {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    let exited = AsyncStream<Void>.makeStream()
    process.terminationHandler = { _ in exited.continuation.finish() }
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    // Both read at once: a child that fills one pipe while the other is read would wait for ever.
    let standardOutput = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }
    let standardError = Task.detached { stderr.fileHandleForReading.readDataToEndOfFile() }
    let watchdog = Task {
        try await Task.sleep(for: timeout)
        process.interrupt()
        try await Task.sleep(for: .seconds(2))
        kill(process.processIdentifier, SIGKILL)
    }
    for await _ in exited.stream {}
    watchdog.cancel()
    let (out, err) = (await standardOutput.value, await standardError.value)
    return ProcessOutput(
        status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
}
