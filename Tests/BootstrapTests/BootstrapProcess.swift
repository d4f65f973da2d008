import Foundation
import Invoker
import LosslessJSON
import TestSupport

/// A built executable of this package (`bootstrap`, `echo-bootstrap`) run as a child process against an emulator.
final class BootstrapProcess: @unchecked Sendable {
    private let process = Process()
    private let errorOutput = Pipe()
    private let output = Pipe()
    /// Standard output and error, read as they come (a pipe left unread would stall a process that writes much)
    /// until they end.
    private let outputReader = OutputReader()
    private let errorReader = OutputReader()

    static let buildDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Starts the built product `executable` with `AWS_LAMBDA_RUNTIME_API` pointing at `runtimeAPI` and nothing else
    /// from this process's environment but `PATH`.
    convenience init(_ executable: String, runtimeAPI: String, environment: [String: String]) throws {
        try self.init(
            path: Self.buildDirectory.appendingPathComponent(executable).path, arguments: [], runtimeAPI: runtimeAPI,
            environment: environment)
    }

    /// Starts the program at `path` (e.g. `/usr/sbin/chroot`) the same way.
    init(path: String, arguments: [String], runtimeAPI: String, environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment.merging(
            ["AWS_LAMBDA_RUNTIME_API": runtimeAPI, "PATH": "/usr/bin:/bin"]) { own, _ in own }
        process.standardError = errorOutput
        process.standardOutput = output
        try process.run()
        outputReader.start(output.fileHandleForReading)
        errorReader.start(errorOutput.fileHandleForReading)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Waits up to `limit` for the process to end; its exit status, or nil (and the process killed) if it did not.
    /// The default is long because a bootstrap that was told to stop may still be waiting for an in-process Runtime API
    /// emulator to answer its last POST, and when the whole suite starts every cooperative thread can be busy.
    func exitStatus(within limit: Duration = .seconds(60)) async throws -> Int32? {
        let deadline = ContinuousClock.now + limit
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return nil
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        return process.terminationStatus
    }

    /// Everything written to standard error. A process still running is stopped first (SIGTERM), so that a test
    /// failing mid-way shows the log rather than waiting for an end that would not come.
    func standardError() -> String {
        if process.isRunning { terminate() }
        return String(decoding: errorReader.wait(), as: UTF8.self)
    }

    /// Waits up to `limit` until standard error holds `text` (a log line the process writes at a known point): true
    /// when it does.
    func waitForStandardError(containing text: String, within limit: Duration = .seconds(60)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !String(decoding: errorReader.readSoFar(), as: UTF8.self).contains(text) {
            guard ContinuousClock.now < deadline, process.isRunning else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Everything written to standard output (the metric lines); call after the process ended.
    func standardOutput() -> String {
        String(decoding: outputReader.wait(), as: UTF8.self)
    }

    func terminate() { kill(process.processIdentifier, SIGTERM) }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// Reads a file handle to its end on a thread of its own.
final class OutputReader: @unchecked Sendable {
    private var data = Data()
    private let lock = NSLock()
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    func start(_ handle: FileHandle) {
        Thread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }.start()
    }

    /// What has been read so far.
    func readSoFar() -> Data {
        lock.withLock { data }
    }

    /// Everything read, once the writer closed its end.
    func wait() -> Data {
        if !finished {
            done.wait()
            finished = true
        }
        return readSoFar()
    }
}

/// A sample event from Events/.
func sampleEvent(_ path: String) throws -> JSONObject {
    let bytes = try Data(contentsOf: BootstrapProcess.repositoryRoot.appendingPathComponent("Events/" + path))
    guard let object = try JSONValue(parsing: Array(bytes)).objectValue else {
        throw SampleEventError(path: path)
    }
    return object
}

struct SampleEventError: Error, CustomStringConvertible {
    let path: String
    var description: String { "Events/\(path) is not a JSON object" }
}

/// The sample Verify event for the challenge a Create response issued, answered with `answer`: for the same user
/// (name and attributes) as the Create.
func verifyEvent(for create: JSONObject, answer: String) throws -> JSONObject {
    var event = try sampleEvent("email-code/03-verify-right-code.json")
    var request = event["request"]?.objectValue ?? JSONObject()
    if let userName = create["userName"] { event["userName"] = userName }
    if let attributes = member(create, "request", "userAttributes") { request["userAttributes"] = attributes }
    request["privateChallengeParameters"] = member(create, "response", "privateChallengeParameters")
    request["challengeAnswer"] = .string(answer)
    event["request"] = .object(request)
    return event
}

/// Verify's `answerCorrect`, from the runtime behind `emulator`, for the challenge `create` issued; nil when the
/// invocation failed.
func answerCorrect(_ emulator: RuntimeAPIEmulator, create: JSONObject, answer: String) async throws -> JSONValue? {
    guard case .response(let verified) = try await invoke(emulator, try verifyEvent(for: create, answer: answer)) else {
        return nil
    }
    return try JSONValue(parsing: verified).objectValue.flatMap { member($0, "response", "answerCorrect") }
}

/// A six-digit answer that is not `code`.
func wrongCode(for code: String) -> String { code == "000000" ? "111111" : "000000" }

/// The object a response carries at `request` or `response`, and so on down the keys.
func member(_ object: JSONObject, _ keys: String...) -> JSONValue? {
    var value = JSONValue.object(object)
    for key in keys {
        guard let next = value.objectValue?[key] else { return nil }
        value = next
    }
    return value
}

/// Bounded invocation, so that a broken runtime fails the test instead of hanging it.
func invoke(_ emulator: RuntimeAPIEmulator, _ object: JSONObject) async throws -> InvocationOutcome {
    try await invoke(emulator, JSONValue.object(object).serialized())
}

func invoke(_ emulator: RuntimeAPIEmulator, _ bytes: [UInt8]) async throws -> InvocationOutcome {
    try await withThrowingTaskGroup(of: InvocationOutcome?.self) { group in
        group.addTask { await emulator.invoke(bytes, timeout: .seconds(5)).outcome }
        group.addTask {
            try await Task.sleep(for: .seconds(10))
            return nil
        }
        defer { group.cancelAll() }
        guard let outcome = try await group.next() ?? nil else { throw InvocationTimedOut() }
        return outcome
    }
}

struct InvocationTimedOut: Error {}

/// moto, the AWS API stand-in, on a free port of 127.0.0.1, and its base URL; stop it when done.
func startMoto() throws -> (server: LocalServerProcess, endpoint: String) {
    let port = LocalServerProcess.freePort()
    do {
        let server = try LocalServerProcess(arguments: MotoServer.arguments(port: port), port: port)
        return (server, "http://127.0.0.1:\(port)")
    } catch {
        throw MotoUnavailable(reason: "\(error)")
    }
}

struct MotoUnavailable: Error, CustomStringConvertible {
    let reason: String
    var description: String { "moto could not start; install it with `pip install 'moto[server]'` (CI does): \(reason)" }
}
