import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import Testing

/// The real `bootstrap` executable, run as a child process against the Runtime API emulator on 127.0.0.1.
@Suite struct BootstrapProcessTests {
    static let secret = "bootstrap-process-test-secret-0123456789abcdef"

    /// A fresh outbox path in the temporary directory.
    static func outboxPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).jsonl").path
    }

    @Test func walksAnEmailCodeSignInAndLogsJSONWithoutTheCode() async throws {
        let outbox = Self.outboxPath()
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: [
                "CHALLENGE_FLOW": "email-code", "CODE_HASH_SECRET": Self.secret, "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox,
                "AWS_LAMBDA_LOG_FORMAT": "JSON",
            ])

        guard case .response(let defined) = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json"))
        else { Issue.record("Define failed"); return }
        let define = try #require(try JSONValue(parsing: defined).objectValue)
        #expect(member(define, "response", "challengeName") == "CUSTOM_CHALLENGE")

        guard case .response(let created) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json"))
        else { Issue.record("Create failed"); return }
        let create = try #require(try JSONValue(parsing: created).objectValue)
        #expect(member(create, "response", "publicChallengeParameters", "destination") == "j***@e***.com")
        let sent = try OutboxDelivery.messages(at: outbox)
        #expect(sent.count == 1)
        let code = try #require(sent.first?.code)
        #expect(sent.first?.recipient == "jane.doe@example.com")
        #expect(!created.containsSubsequence(Array(code.utf8)))

        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))
        #expect(try await answerCorrect(emulator, create: create, answer: wrongCode(for: code)) == .bool(false))

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        let lines = log.split(separator: "\n")
        #expect(lines.count >= 4)
        for line in lines {
            let entry = try #require(try JSONValue(parsing: String(line)).objectValue, "not a JSON log line: \(line)")
            #expect(entry["timestamp"]?.stringValue != nil && entry["level"]?.stringValue != nil)
            #expect(entry["message"]?.stringValue != nil)
        }
        #expect(lines.filter { $0.contains("\"requestId\"") }.count >= 4)
        #expect(!log.contains(code))
        #expect(!log.contains(Self.secret))
    }

    @Test func reportsBadEventsAndServesTheNextOne() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: ["CODE_HASH_SECRET": Self.secret, "CODE_DELIVERY": "outbox", "OUTBOX_PATH": Self.outboxPath()])

        guard case .functionError(let malformed) = try await invoke(emulator, Array("{\"version\": ".utf8)) else {
            Issue.record("malformed JSON should be a function error"); return
        }
        #expect(malformed.errorType == "Runtime.UnmarshalError")
        let unknown = try sampleEvent("invalid/unknown-trigger-source.json")
        guard case .functionError(let unknownTrigger) = try await invoke(emulator, unknown) else {
            Issue.record("an unknown trigger should be a function error"); return
        }
        #expect(unknownTrigger.errorType == "Function.UnknownTriggerSource")
        let report = try #require(try JSONValue(parsing: unknownTrigger.body).objectValue)
        #expect(report["errorType"] == "Function.UnknownTriggerSource")
        // The client signing in sees only a reference; the detail is in the function's log under that reference.
        let message = try #require(report["errorMessage"]?.stringValue)
        let reference = try #require(message.wholeMatch(of: /Sign-in could not continue \(reference ([0-9a-f-]+)\)\./)?.1)
        #expect(!message.contains("PreSignUp_SignUp"))

        guard case .response = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json")) else {
            Issue.record("the loop should serve the next event"); return
        }
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(log.contains("\(reference)\tERROR\tFunction.UnknownTriggerSource: "), "\(log)")
        #expect(log.contains("PreSignUp_SignUp"))
    }

    /// A proxy set for the function's own calls (here one that refuses every connection) never carries the loop's
    /// requests to the Runtime API, which libcurl would otherwise send through it, 127.0.0.1 included.
    @Test func reachesTheRuntimeAPIWithProxyVariablesSet() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let refusingProxy = "http://127.0.0.1:1"
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: [
                "CODE_HASH_SECRET": Self.secret, "CODE_DELIVERY": "outbox", "OUTBOX_PATH": Self.outboxPath(),
                "http_proxy": refusingProxy, "HTTP_PROXY": refusingProxy, "all_proxy": refusingProxy,
                "ALL_PROXY": refusingProxy,
            ])
        guard case .response = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json")) else {
            Issue.record("the bootstrap should answer through no proxy: \(bootstrap.standardError())"); return
        }
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
    }

    @Test func aBadConfigurationIsAnInitErrorAndExitStatus1() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess("bootstrap", runtimeAPI: address, environment: ["CODE_LENGTH": "6"])
        #expect(try await bootstrap.exitStatus() == 1)
        guard case .initFailed(let error) = try await emulator.runtimeStart() else {
            Issue.record("the configuration error should reach init/error"); return
        }
        #expect(error.errorType == "Runtime.InvalidConfiguration")
        #expect(String(decoding: error.body, as: UTF8.self).contains("CODE_HASH_SECRET"))
        #expect(bootstrap.standardError().contains("CODE_HASH_SECRET"))
        await emulator.shutdown()
    }

    @Test func endsWithStatus1AndAClearMessageWhenTheRuntimeAPIIsDown() async throws {
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: "127.0.0.1:1", environment: ["CODE_HASH_SECRET": Self.secret, "CODE_DELIVERY": "outbox"])
        #expect(try await bootstrap.exitStatus() == 1)
        #expect(bootstrap.standardError().contains("the Runtime API at 127.0.0.1:1 cannot be reached"))
    }

    @Test func sigtermWhileWaitingForAnInvocationExitsWithStatus0() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address, environment: ["CODE_HASH_SECRET": Self.secret, "CODE_DELIVERY": "outbox"])
        guard case .ready = try await emulator.runtimeStart() else {
            Issue.record("the bootstrap should ask for an invocation"); return
        }
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        #expect(bootstrap.standardError().contains("SIGTERM"))
        await emulator.shutdown()
    }
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// SIGTERM during an invocation, with the echo loop whose `"slow"` event takes five seconds.
@Suite struct TerminationTests {
    @Test func sigtermDuringAnInvocationAnswersItThenExitsWithStatus0() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        // At DEBUG the echo handler logs "echoing N bytes" as it starts on an event: the sign that it has the event.
        let echo = try BootstrapProcess("echo-bootstrap", runtimeAPI: address, environment: ["AWS_LAMBDA_LOG_LEVEL": "DEBUG"])
        guard case .ready = try await emulator.runtimeStart() else {
            Issue.record("the echo loop should ask for an invocation"); return
        }
        let slow = Task { await emulator.invoke(Array("\"slow\"".utf8), timeout: .seconds(20)).outcome }
        // SIGTERM must land while the event is being handled, not before the runtime has it (a SIGTERM while it
        // waits for an event ends it at once): the handler's own log line says it has begun.
        #expect(try await echo.waitForStandardError(containing: "echoing 6 bytes"), "the handler never started")
        echo.terminate()
        #expect(await slow.value == .response(Array("\"slow\"".utf8)))
        #expect(try await echo.exitStatus() == 0)
        await emulator.shutdown()
    }
}
