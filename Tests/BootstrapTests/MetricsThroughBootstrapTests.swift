import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The sign-in funnel's metrics through the real `bootstrap`: one embedded-metric-format line per invocation on
/// standard output, beside the JSON log on standard error, and nothing personal in any of them.
@Suite struct MetricsThroughBootstrapTests {
    static let environment = [
        "CHALLENGE_FLOW": "email-code", "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "outbox",
        "AWS_LAMBDA_LOG_FORMAT": "JSON", "AWS_LAMBDA_FUNCTION_NAME": "sign-in-triggers", "STATE_STORE": "memory",
        "DECOY_DELAY_MS": "1",
    ]

    @Test func everyInvocationWritesOneMetricLineThatNamesNobody() async throws {
        let outbox = BootstrapProcessTests.outboxPath()
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address, environment: Self.environment.merging(["OUTBOX_PATH": outbox]) { $1 })

        var invocations = 0
        var personal: Set<String> = []
        // Three users sign in, each answering wrong once, then right; and one user who does not exist.
        for user in ["jane.doe", "maria.garcia", "li.wei"] {
            var event = try sampleEvent("email-code/02-create-code.json")
            let email = "\(user)@example.org"
            event["userName"] = .string(user)
            var request = try #require(event["request"]?.objectValue)
            var attributes = try #require(request["userAttributes"]?.objectValue)
            attributes["email"] = .string(email)
            attributes["sub"] = .string("sub-\(user)-7f3e9a")
            request["userAttributes"] = .object(attributes)
            event["request"] = .object(request)
            personal.formUnion([user, email, "sub-\(user)-7f3e9a"])

            guard case .response = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json")) else {
                Issue.record("Define failed"); return
            }
            guard case .response(let created) = try await invoke(emulator, event) else {
                Issue.record("Create failed: \(bootstrap.standardError())"); return
            }
            let create = try #require(try JSONValue(parsing: created).objectValue)
            let code = try #require(try OutboxDelivery.messages(at: outbox).last?.code)
            personal.insert(code)
            for (_, value) in member(create, "response", "privateChallengeParameters")?.objectValue ?? JSONObject() {
                if let text = value.stringValue, text.count > 16 { personal.insert(text) }
            }
            #expect(try await answerCorrect(emulator, create: create, answer: wrongCode(for: code)) == .bool(false))
            #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))
            invocations += 4
        }
        guard case .response = try await invoke(emulator, try sampleEvent("email-code/13-create-user-not-found.json")) else {
            Issue.record("Create for an unknown user failed"); return
        }
        invocations += 1

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()

        let output = bootstrap.standardOutput()
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(output.hasSuffix("\n"))
        #expect(lines.count == invocations, "\(output)")
        var totals: [String: Double] = [:]
        for (index, text) in lines.enumerated() {
            let line = try EmbeddedMetricLine(String(text))
            #expect(line.namespaces.allSatisfy { $0 == "CognitoChallenge" })
            #expect(line.dimension("FunctionName") == "sign-in-triggers")
            #expect(line.value("ColdStart") == (index == 0 ? 1 : 0))
            #expect((line.value("InitMilliseconds") != nil) == (index == 0))
            for counter in ["ChallengeCreated", "CodeDelivered", "DecoyServed", "AnswerCorrect", "AnswerWrong", "ColdStart"] {
                totals[counter, default: 0] += line.value(counter) ?? 0
            }
            for secret in personal { #expect(!text.contains(secret), "\(secret) in \(text)") }
            #expect(!text.contains("@"))
        }
        #expect(totals == [
            "ChallengeCreated": 4, "CodeDelivered": 3, "DecoyServed": 1, "AnswerCorrect": 3, "AnswerWrong": 3, "ColdStart": 1,
        ])

        // The JSON log goes on beside the metrics, on its own stream.
        let log = bootstrap.standardError()
        for line in log.split(separator: "\n") {
            let entry = try #require(try JSONValue(parsing: String(line)).objectValue, "not a JSON log line: \(line)")
            #expect(entry["_aws"] == nil && entry["level"]?.stringValue != nil)
        }
        for secret in personal where secret.allSatisfy(\.isNumber) { #expect(!log.contains(secret)) }
    }

    @Test func metricsOffWritesNothingToStandardOutput() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: Self.environment.merging(["METRICS": "off", "OUTBOX_PATH": BootstrapProcessTests.outboxPath()]) { $1 })
        guard case .response = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json")) else {
            Issue.record("Define failed"); return
        }
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        #expect(bootstrap.standardOutput().isEmpty)
    }

    @Test func aFailedInvocationStillWritesItsLine() async throws {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: Self.environment.merging(["OUTBOX_PATH": "/nonexistent-directory/outbox.jsonl"]) { $1 })
        guard case .functionError(let error) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json")) else {
            Issue.record("a delivery to a missing directory should fail"); return
        }
        #expect(error.errorType == "Function.DeliveryFailed")
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let line = try EmbeddedMetricLine(bootstrap.standardOutput())
        #expect(line.value("DeliveryFailed") == 1)
        #expect(line.dimension("Outcome") == "delivery-failed")
    }
}
