import CurlHTTP
import Foundation
import LosslessJSON
import TestSupport
import Testing

/// `cognito-local serve` running as a process, stopped with SIGTERM when the test is done.
final class ServeProcess: @unchecked Sendable {
    let process = Process()
    let address: String
    private let errors = Pipe()

    init(_ arguments: [String], environment: [String: String] = [:]) async throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: try BuiltProducts.executable("cognito-local"))
        process.arguments = ["serve", "--port", "0"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let reader = output.fileHandleForReading
        let firstLine = Task.detached { () -> String in
            var text = ""
            while !text.contains("\n") {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            return text
        }
        let watchdog = Task { [process] in
            try await Task.sleep(for: .seconds(20))
            process.terminate()
        }
        let line = await firstLine.value
        watchdog.cancel()
        guard let range = line.range(of: "Listening on http://") else {
            throw TestFailure("serve did not start: \(line)")
        }
        address = String(line[range.upperBound...].prefix { !$0.isWhitespace })
    }

    /// SIGTERM, then the exit status and everything written to standard error.
    func stop() async throws -> (status: Int32, stderr: String) {
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
    }

    /// POSTs `body` to `path` with libcurl, as JSON unless `headers` say otherwise, and returns the answer.
    func post(
        _ body: [UInt8], path: String = "/2015-03-31/functions/function/invocations",
        headers: [HTTPHeader] = [HTTPHeader("Content-Type", "application/json")]
    ) throws -> HTTPResponse {
        try CurlSession().perform(
            HTTPRequest(
                method: .post, url: "http://\(address)\(path)", headers: headers, body: body, totalTimeout: .seconds(90)))
    }
}

@Suite("serve: the Invoke API over HTTP", .serialized)
struct ServeTests {
    static func event(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Events/" + path))))
    }

    @Test("responses, function errors and wrong paths, through the real bootstrap; SIGTERM stops it and the bootstrap")
    func answersLikeLambda() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bootstrap = try BuiltProducts.executable("bootstrap")
        let serve = try await ServeProcess(["--bootstrap", bootstrap], environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])

        let defined = try serve.post(try Self.event("email-code/01-define-start.json"))
        #expect(defined.status == 200)
        #expect(defined.header("X-Amz-Function-Error") == nil)
        #expect(defined.header("X-Amz-Executed-Version") == "$LATEST")
        let response = try JSONValue(parsing: defined.body).objectValue?["response"]?.objectValue
        #expect(response?["challengeName"] == "CUSTOM_CHALLENGE")

        let malformed = try serve.post(Array("{\"version\":".utf8))
        #expect(malformed.status == 200)
        #expect(malformed.header("X-Amz-Function-Error") == "Unhandled")
        let error = try JSONValue(parsing: malformed.body).objectValue
        #expect(error?["errorType"] == "Runtime.UnmarshalError")

        let elsewhere = try serve.post([], path: "/2018-06-01/runtime/invocation/next")
        #expect(elsewhere.status == 404)

        let children = try await run("/usr/bin/pgrep", ["-P", String(serve.process.processIdentifier)])
        let bootstrapProcess = try #require(children.stdout.split(separator: "\n").first.flatMap { pid_t($0) })
        let (status, log) = try await serve.stop()
        #expect(status == 0)
        #expect(log.contains("REPORT RequestId: "))
        #expect(log.contains("Init Duration: "))
        #expect(kill(bootstrapProcess, 0) != 0, "the bootstrap outlived serve")
    }

    @Test("events with a UTF-8 byte-order mark are answered with plain JSON, without the mark",
          arguments: ["in process", "through the bootstrap"])
    func answersByteOrderMarkEventsWithPlainJSON(_ where: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let arguments = `where` == "in process" ? [] : ["--bootstrap", try BuiltProducts.executable("bootstrap")]
        let serve = try await ServeProcess(arguments, environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
        for (trigger, member) in [("define", "challengeName"), ("create", "publicChallengeParameters"), ("verify", "answerCorrect")] {
            let event = try Self.event("variants/\(trigger)-with-byte-order-mark.json")
            #expect(event.starts(with: [0xEF, 0xBB, 0xBF]))
            let answer = try serve.post(event)
            #expect(answer.status == 200)
            #expect(answer.header("X-Amz-Function-Error") == nil, "\(trigger): \(String(decoding: answer.body, as: UTF8.self))")
            #expect(answer.body.first == UInt8(ascii: "{"), "\(trigger): the answer starts with \(answer.body.prefix(3))")
            let returned = try JSONValue(parsing: answer.body).objectValue
            #expect(returned?["response"]?.objectValue?[member] != nil, "\(trigger)")
            #expect(returned?["userName"] == "jane")
        }
        _ = try await serve.stop()
    }

    @Test("concurrent callers are queued, not dropped")
    func queuesConcurrentCallers() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let serve = try await ServeProcess(["--bootstrap", try BuiltProducts.executable("bootstrap")],
                                           environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
        let event = try Self.event("email-code/02-create-code.json")
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for _ in 0..<12 {
                group.addTask {
                    let answer = try serve.post(event)
                    return (answer.status, answer.header("X-Amzn-RequestId"))
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.count == 12)
        #expect(statuses.allSatisfy { $0.0 == 200 })
        #expect(Set(statuses.compactMap(\.1)).count == 12, "each caller got its own invocation")
        _ = try await serve.stop()
    }

    @Test("aws lambda invoke --endpoint-url works against it", .requires(.awsCLI))
    func awsCLIInvokes() async throws {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let aws = try #require(path.split(separator: ":").map({ "\($0)/aws" }).first(where: FileManager.default.isExecutableFile))
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let serve = try await ServeProcess([], environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
        let output = scratch.path("response.json")
        let result = try await run(
            aws,
            ["lambda", "invoke", "--endpoint-url", "http://\(serve.address)", "--function-name", "function",
             "--region", "us-east-1", "--payload", "fileb://" + Repository.path("Events/email-code/01-define-start.json"),
             output],
            environment: ["AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "AWS_CONFIG_FILE": "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"StatusCode\": 200"))
        let response = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: output)))).objectValue
        #expect(response?["response"]?.objectValue?["challengeName"] == "CUSTOM_CHALLENGE")
        _ = try await serve.stop()
    }

    @Test("a bootstrap that dies is reported as Runtime.ExitError and started again for the next invocation", .requires(.python3))
    func restartsADeadBootstrap() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let crashing = try scratch.write("crashing-bootstrap", StandIn.takesOneEventThen("exit 3"), executable: true)
        let serve = try await ServeProcess(["--bootstrap", crashing])
        for _ in 0..<2 {
            let answer = try serve.post(Array("{}".utf8))
            #expect(answer.status == 200)
            #expect(answer.header("X-Amz-Function-Error") == "Unhandled")
            let error = try JSONValue(parsing: answer.body).objectValue
            #expect(error?["errorType"] == "Runtime.ExitError")
            #expect(error?["errorMessage"]?.stringValue?.contains("exit status 3") == true)
        }
        let (_, log) = try await serve.stop()
        #expect(log.components(separatedBy: "Init Duration").count == 3, "one fresh start per invocation")
    }
}

/// Stand-in bootstraps written in Python: they take an event from the Runtime API and then misbehave.
enum StandIn {
    /// The Python that opens the Runtime API's invocation endpoints (`api + "next"`).
    private static let runtimeAPI = """
        import os, urllib.request as http
        api = "http://" + os.environ["AWS_LAMBDA_RUNTIME_API"] + "/2018-06-01/runtime/invocation/"
        """

    static func takesOneEventThen(_ shellAction: String) -> String {
        """
        #!/bin/sh
        python3 -c '\(runtimeAPI)
        http.urlopen(api + "next").read()'
        \(shellAction)
        """
    }

    /// Answers one event with the event itself, runs `shellAction`, then asks for the next event (which it waits for).
    static func answersOneEventThen(_ shellAction: String) -> String {
        """
        #!/bin/sh
        python3 -c '\(runtimeAPI)
        taken = http.urlopen(api + "next")
        event = taken.read()
        answer = api + taken.headers["Lambda-Runtime-Aws-Request-Id"] + "/response"
        http.urlopen(http.Request(answer, data=event, method="POST")).read()'
        \(shellAction)
        python3 -c '\(runtimeAPI)
        http.urlopen(api + "next").read()'
        """
    }
}
