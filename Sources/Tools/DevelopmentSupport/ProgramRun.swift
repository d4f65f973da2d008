import Foundation

/// A program run to its end: how it exited, and what it wrote.
public struct ProgramRun: Sendable {
    /// Its exit status.
    public let status: Int32
    /// What it wrote to standard output.
    public let output: [UInt8]
    /// What it wrote to standard error, as text.
    public let errors: String

    /// Runs the program at `executable` with `arguments` (and `environment`, or this process's) and waits for it.
    /// Standard error goes to a temporary file while standard output is read, so neither fills while the other waits.
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws {
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent("stderr-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorsFile.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorsFile.path])
        }
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let errorsHandle = try FileHandle(forWritingTo: errorsFile)
        defer { try? errorsHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outputPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorsHandle
        try process.run()
        let printed = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        output = Array(printed)
        errors = String(decoding: (try? Data(contentsOf: errorsFile)) ?? Data(), as: UTF8.self)
    }
}
