import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The sign-in funnel's metrics: the facts the handler reports, and the embedded-metric-format line made of them.
@Suite("Sign-in funnel metrics (EMF)")
struct FunnelMetricsTests {
    let clock = TestClock()
    let store = MemoryStateStore()
    let delivery = RecordingDelivery()
    static let metrics = SignInMetrics(settings: MetricsSettings(namespace: "CognitoChallenge", functionName: "sign-in-triggers"))

    func handler(
        _ extra: [String: String] = [:], store: (any StateStore)? = nil, delivery: (any CodeDelivery)? = nil
    ) throws -> CognitoTriggerHandler {
        let environment = [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "STATE_STORE": "memory",
            "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
        ].merging(extra) { $1 }
        return try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: environment), delivery: delivery ?? self.delivery,
            stateStore: store ?? self.store, clock: clock.read)
    }

    /// One invocation: its response (nil when it failed) and its metric line, checked against the specification.
    struct Invoked {
        let result: TriggerResult?
        let line: EmbeddedMetricLine
        let text: String

        func value(_ metric: String) -> Double? { line.value(metric) }
        var created: CreateAuthChallengeEvent? {
            if case .create(let event)? = result?.event { event } else { nil }
        }
    }

    func invoke(_ handler: CognitoTriggerHandler, _ bytes: [UInt8], initDuration: Duration? = nil) throws -> Invoked {
        var facts = TriggerFacts()
        let result = try? handler.handle(bytes, facts: &facts)
        if let result { #expect(result.facts == facts) }
        let bytes = Self.metrics.line(for: facts, initDuration: initDuration, timestamp: 1_763_800_000_123)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(bytes.last == UInt8(ascii: "\n") && bytes.dropLast().allSatisfy { $0 != 0x0A && $0 != 0x0D }, "one line")
        return Invoked(result: result, line: try EmbeddedMetricLine(text), text: text)
    }

    func event(_ name: String) throws -> [UInt8] { try SignInLimitsTests.event(name) }

    // MARK: The format

    @Test("every line follows the specification, declares every counter, and names each dimension as a member")
    func lineFollowsTheSpecification() throws {
        let handler = try handler()
        let create = try invoke(handler, try event("email-code/02-create-code.json"), initDuration: .milliseconds(42))
        let line = create.line
        #expect(line.root.keys.first == "_aws")
        #expect(line.root["_aws"]?.objectValue?["Timestamp"] == .number(JSONNumber(1_763_800_000_123)))
        #expect(Set(line.namespaces) == ["CognitoChallenge"])
        #expect(line.dimensionSets.contains(["FunctionName"]))
        #expect(line.dimensionSets.contains(["FunctionName", "Trigger", "StepKind", "Channel", "Outcome"]))
        for counter in SignInMetrics.counters { #expect(line.units[counter] == "Count", "\(counter)") }
        for timing in ["DeliveryMilliseconds", "StateStoreMilliseconds", "InitMilliseconds"] {
            #expect(line.units[timing] == "Milliseconds", "\(timing)")
        }
        #expect(line.dimension("FunctionName") == "sign-in-triggers")
        #expect(line.dimension("Trigger") == "Create")
        #expect(line.dimension("StepKind") == "EMAIL_CODE")
        #expect(line.dimension("Channel") == "email")
        #expect(line.dimension("Outcome") == "sent")
        #expect(line.value("InitMilliseconds") == 42)

        // Define, Verify, and an event that cannot be read follow it too.
        let define = try invoke(handler, try event("email-code/01-define-start.json"))
        #expect(define.line.dimension("Trigger") == "Define" && define.line.dimension("Outcome") == "challenge")
        #expect(define.line.units["InitMilliseconds"] == nil && define.value("ColdStart") == 0)
        let created = try #require(create.created)
        _ = try invoke(handler, try verifyEvent(after: created, answer: "000000"))
        let unreadable = try invoke(handler, Array("{\"version\": ".utf8))
        #expect(unreadable.line.dimensionSets == [["FunctionName"]])
    }

    @Test("a line is written byte for byte as specified: directives, dimension members, counters, then timings")
    func exactBytes() {
        let declared = SignInMetrics.counters.map { #"{"Name":"\#($0)","Unit":"Count"}"# }.joined(separator: ",")
        func timing(_ name: String) -> String { #"{"Name":"\#(name)","Unit":"Milliseconds"}"# }
        func values(_ moved: Set<String>) -> String {
            SignInMetrics.counters.map { #","\#($0)":\#(moved.contains($0) ? 1 : 0)"# }.joined()
        }
        let head = #"{"_aws":{"Timestamp":1763800000123,"CloudWatchMetrics":[{"Namespace":"CognitoChallenge","Dimensions":[["FunctionName"]],"Metrics":["#
        let detail = #"{"Namespace":"CognitoChallenge","Dimensions":[["FunctionName","Trigger","StepKind","Channel","Outcome"]],"Metrics":["#

        var sent = TriggerFacts(trigger: .create)
        (sent.stepKind, sent.channel, sent.outcome) = (.emailCode, .email, .sent)
        (sent.deliveryTime, sent.stateStoreTime) = (.microseconds(12_345), .microseconds(1_002))
        let cold = Self.metrics.line(for: sent, initDuration: .milliseconds(42), timestamp: 1_763_800_000_123)
        #expect(String(decoding: cold, as: UTF8.self) == head + declared
            + "," + [timing("DeliveryMilliseconds"), timing("StateStoreMilliseconds"), timing("InitMilliseconds")].joined(separator: ",")
            + "]}," + detail + #"{"Name":"ChallengeCreated","Unit":"Count"},{"Name":"CodeDelivered","Unit":"Count"},"#
            + timing("DeliveryMilliseconds") + "," + timing("StateStoreMilliseconds") + "]}]}"
            + #","FunctionName":"sign-in-triggers","Trigger":"Create","StepKind":"EMAIL_CODE","Channel":"email","Outcome":"sent""#
            + values(["ChallengeCreated", "CodeDelivered", "ColdStart"])
            + #","DeliveryMilliseconds":12.345,"StateStoreMilliseconds":1.002,"InitMilliseconds":42.000}"# + "\n")

        let define = Self.metrics.line(for: TriggerFacts(trigger: .define), initDuration: nil, timestamp: 1_763_800_000_123)
        #expect(String(decoding: define, as: UTF8.self) == head + declared + "]}]}"
            + #","FunctionName":"sign-in-triggers","Trigger":"Define","StepKind":"none","Channel":"none","Outcome":"none""#
            + values([]) + "}\n")

        var rejected = TriggerFacts(trigger: .verify)
        (rejected.stepKind, rejected.outcome, rejected.captchaRejection) = (.captcha, .captchaRejected, "score")
        let captcha = Self.metrics.line(for: rejected, initDuration: nil, timestamp: 1_763_800_000_123)
        #expect(String(decoding: captcha, as: UTF8.self) == head + declared + "]}," + detail
            + #"{"Name":"CaptchaRejected","Unit":"Count"}]},"#
            + #"{"Namespace":"CognitoChallenge","Dimensions":[["FunctionName","CaptchaReason"]],"Metrics":[{"Name":"CaptchaRejected","Unit":"Count"}]}]}"#
            + #","FunctionName":"sign-in-triggers","Trigger":"Verify","StepKind":"CAPTCHA","Channel":"none","Outcome":"captcha-rejected""#
            + #","CaptchaReason":"score""# + values(["CaptchaRejected"]) + "}\n")
    }

    @Test("a line of a shape written before is the line a fresh instance writes, whatever came in between")
    func repeatedShapes() {
        let settings = MetricsSettings(namespace: "CognitoChallenge", functionName: "sign-in-triggers")
        let metrics = SignInMetrics(settings: settings)
        var sent = TriggerFacts(trigger: .create)
        (sent.stepKind, sent.channel, sent.outcome, sent.stateStoreTime) = (.emailCode, .email, .sent, .microseconds(1_002))
        var rejected = TriggerFacts(trigger: .verify)
        (rejected.stepKind, rejected.outcome, rejected.captchaRejection) = (.captcha, .captchaRejected, "score")
        func expectFresh(_ facts: TriggerFacts, initDuration: Duration? = nil, timestamp: Int64) {
            let line = metrics.line(for: facts, initDuration: initDuration, timestamp: timestamp)
            let fresh = SignInMetrics(settings: settings).line(for: facts, initDuration: initDuration, timestamp: timestamp)
            #expect(String(decoding: line, as: UTF8.self) == String(decoding: fresh, as: UTF8.self))
        }

        // The same facts twice in a row, then two shapes in turn with other timestamps and timings each round.
        let first = metrics.line(for: sent, initDuration: nil, timestamp: 1_763_800_000_123)
        #expect(metrics.line(for: sent, initDuration: nil, timestamp: 1_763_800_000_123) == first)
        for round in 0..<3 {
            sent.deliveryTime = round == 1 ? nil : .microseconds(12_345 * Int64(round + 1))
            expectFresh(sent, timestamp: 1_763_800_000_123 + Int64(round))
            expectFresh(rejected, timestamp: -Int64(round))
            expectFresh(sent, initDuration: .milliseconds(42 + round), timestamp: Int64(round))
            expectFresh(TriggerFacts(), timestamp: 1_763_800_000_000)
        }
        // More reasons than the instance keeps shapes of: those past its limit are written whole, and as well.
        for reason in 0..<100 {
            rejected.captchaRejection = "reason-\(reason)"
            expectFresh(rejected, timestamp: 1_763_800_000_000 + Int64(reason))
        }
        rejected.captchaRejection = "score"
        expectFresh(rejected, timestamp: 0)
    }

    @Test("the namespace is METRICS_NAMESPACE; METRICS=off turns metrics off; bad values name their variable")
    func settings() throws {
        let defaults = try MetricsSettings(environment: [:])
        #expect(defaults == MetricsSettings(enabled: true, namespace: "CognitoChallenge", functionName: "local"))
        let custom = try MetricsSettings(environment: [
            "METRICS": "on", "METRICS_NAMESPACE": "Acme/SignIn", "AWS_LAMBDA_FUNCTION_NAME": "acme-triggers",
        ])
        #expect(custom == MetricsSettings(enabled: true, namespace: "Acme/SignIn", functionName: "acme-triggers"))
        #expect(try MetricsSettings(environment: ["METRICS": "off"]).enabled == false)
        #expect(throws: ConfigurationError.self) { try MetricsSettings(environment: ["METRICS": "maybe"]) }
        #expect(throws: ConfigurationError.self) { try MetricsSettings(environment: ["METRICS_NAMESPACE": "AWS/Lambda"]) }
        #expect(throws: ConfigurationError.self) { try MetricsSettings(environment: ["METRICS_NAMESPACE": "a\nb"]) }
        let configured = try TriggerConfiguration(environment: [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "METRICS": "off",
        ])
        #expect(configured.metrics.enabled == false)

        let line = SignInMetrics(settings: custom).line(for: TriggerFacts(trigger: .define), initDuration: nil, timestamp: 1_763_800_000_000)
        #expect(try EmbeddedMetricLine(String(decoding: line, as: UTF8.self)).namespaces.allSatisfy { $0 == "Acme/SignIn" })
    }

    // MARK: One test per metric

    @Test("ChallengeCreated, CodeDelivered and DeliveryMilliseconds move when a code is sent")
    func codeDelivered() throws {
        let sent = try invoke(try handler(), try event("email-code/02-create-code.json"))
        #expect(sent.value("ChallengeCreated") == 1)
        #expect(sent.value("CodeDelivered") == 1)
        #expect((sent.value("DeliveryMilliseconds") ?? -1) >= 0)
        #expect(delivery.messages.count == 1)
    }

    @Test("DeliveryFailed moves when the delivery fails")
    func deliveryFailed() throws {
        let failed = try invoke(try handler(delivery: FailingDelivery()), try event("email-code/02-create-code.json"))
        #expect(failed.result == nil)
        #expect(failed.value("DeliveryFailed") == 1)
        #expect(failed.value("CodeDelivered") == 0 && failed.value("ChallengeCreated") == 0)
        #expect(failed.line.dimension("Outcome") == "delivery-failed")
        #expect(failed.value("DeliveryMilliseconds") != nil)
    }

    @Test("DecoyServed moves for an unknown user, and nothing is sent")
    func decoyServed() throws {
        let decoy = try invoke(try handler(), try event("email-code/13-create-user-not-found.json"))
        #expect(decoy.value("DecoyServed") == 1)
        #expect(decoy.value("ChallengeCreated") == 1)
        #expect(decoy.value("CodeDelivered") == 0)
        #expect(delivery.messages.isEmpty)
    }

    @Test("AnswerCorrect moves for the right code, AnswerWrong for a wrong one")
    func answers() throws {
        let handler = try handler()
        let created = try #require(try invoke(handler, try event("email-code/02-create-code.json")).created)
        let code = try #require(delivery.messages.first?.code)
        let wrong = try invoke(handler, try verifyEvent(after: created, answer: code == "000000" ? "111111" : "000000"))
        #expect(wrong.value("AnswerWrong") == 1 && wrong.value("AnswerCorrect") == 0)
        #expect(wrong.line.dimension("Outcome") == "wrong")
        #expect(wrong.value("StateStoreMilliseconds") != nil)
        let right = try invoke(handler, try verifyEvent(after: created, answer: code))
        #expect(right.value("AnswerCorrect") == 1 && right.value("AnswerWrong") == 0)
        #expect(right.line.dimension("Trigger") == "Verify" && right.line.dimension("StepKind") == "EMAIL_CODE")
    }

    @Test("AnswerExpired moves for an answer after the code's validity")
    func answerExpired() throws {
        let handler = try handler()
        let created = try #require(try invoke(handler, try event("email-code/02-create-code.json")).created)
        clock.advance(181)
        let late = try invoke(handler, try verifyEvent(after: created, answer: delivery.messages.first?.code ?? ""))
        #expect(late.value("AnswerExpired") == 1 && late.value("AnswerCorrect") == 0)
    }

    @Test("Throttled moves when the user reached MAX_SENDS_PER_WINDOW")
    func throttled() throws {
        let handler = try handler(["MAX_SENDS_PER_WINDOW": "1", "RESEND_AFTER_SECONDS": "0"])
        let first = try invoke(handler, try event("email-code/02-create-code.json"))
        #expect(first.value("Throttled") == 0)
        let second = try invoke(handler, try event("email-code/02-create-code.json"))
        #expect(second.value("Throttled") == 1 && second.value("CodeDelivered") == 0)
        #expect(second.line.dimension("Outcome") == "throttled")
    }

    @Test("FailureBudgetExhausted moves when the wrong answers of the window are spent")
    func failureBudgetExhausted() throws {
        let handler = try handler(["MAX_FAILURES_PER_WINDOW": "1", "FRESH_CODE_ATTEMPTS": "0"])
        let created = try #require(try invoke(handler, try event("email-code/02-create-code.json")).created)
        let code = try #require(delivery.messages.first?.code)
        let wrong = code == "000000" ? "111111" : "000000"
        #expect(try invoke(handler, try verifyEvent(after: created, answer: wrong)).value("FailureBudgetExhausted") == 0)
        let spent = try invoke(handler, try verifyEvent(after: created, answer: code))
        #expect(spent.value("FailureBudgetExhausted") == 1 && spent.value("AnswerCorrect") == 0)
    }

    @Test("StateStoreErrors moves when the state store fails; StateStoreMilliseconds times it")
    func stateStoreErrors() throws {
        let failed = try invoke(try handler(store: FailingStore()), try event("email-code/02-create-code.json"))
        #expect(failed.result == nil)
        #expect(failed.value("StateStoreErrors") == 1)
        #expect(failed.value("StateStoreMilliseconds") != nil)
        #expect(failed.line.dimension("Outcome") == "state-store-error")
        let fine = try invoke(try handler(), try event("email-code/02-create-code.json"))
        #expect(fine.value("StateStoreErrors") == 0 && (fine.value("StateStoreMilliseconds") ?? -1) >= 0)
    }

    @Test("CaptchaRejected moves, with the provider's reason class as a dimension")
    func captchaRejected() throws {
        let handler = try handler([
            "CHALLENGE_FLOW": "captcha-email-code", "CAPTCHA_PROVIDER": "turnstile", "CAPTCHA_SITE_KEY": "0x4AAAAAAASiteKey",
            "CAPTCHA_SECRET": "0x4AAAAAAASecretKeyForTestsOnly", "CAPTCHA_ENDPOINT": "http://127.0.0.1:1/siteverify",
            "CAPTCHA_ALLOWED_HOSTNAMES": "login.example.com",
        ])
        let created = try #require(try invoke(handler, try event("captcha-email-code/02-create-captcha.json")).created)
        let rejected = try invoke(handler, try verifyEvent(after: created, answer: ""))
        #expect(rejected.value("CaptchaRejected") == 1)
        #expect(rejected.line.dimension("CaptchaReason") == "unusable-token")
        #expect(rejected.line.dimensionSets.contains(["FunctionName", "CaptchaReason"]))
        #expect(rejected.line.dimension("StepKind") == "CAPTCHA")
    }

    @Test("ColdStart and InitMilliseconds move on a process's first invocation only")
    func coldStart() throws {
        let handler = try handler()
        let first = try invoke(handler, try event("email-code/01-define-start.json"), initDuration: .microseconds(12_345))
        #expect(first.value("ColdStart") == 1)
        #expect(first.value("InitMilliseconds") == 12.345)
        let next = try invoke(handler, try event("email-code/01-define-start.json"))
        #expect(next.value("ColdStart") == 0 && next.value("InitMilliseconds") == nil)
    }

    // MARK: Nothing personal

    @Test("no user name, address, phone number, code or token ever appears in a metric line")
    func nothingPersonal() throws {
        let handler = try handler(["CHALLENGE_FLOW": "email-or-sms-code", "SMS_DELIVERY": "outbox", "MAX_FAILURES_PER_WINDOW": "3"])
        var lines: [String] = []
        var secrets: Set<String> = []
        for name in ["email-or-sms-code", "email-code", "sms-code"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: CorpusEvent.eventsDirectory.appendingPathComponent(name).path)
            where file.hasSuffix(".json") && !file.hasSuffix(".expected.json") {
                let bytes = try event("\(name)/\(file)")
                let parsed = try JSONValue(parsing: bytes).objectValue
                if let user = parsed?["userName"]?.stringValue { secrets.insert(user) }
                for (_, value) in parsed?["request"]?.objectValue?["userAttributes"]?.objectValue ?? JSONObject() {
                    if let text = value.stringValue, text.count > 5 { secrets.insert(text) }
                }
                let invoked = try invoke(handler, bytes)
                lines.append(invoked.text)
                if let created = invoked.created {
                    for (_, value) in created.response.privateChallengeParameters ?? [:] where value.count > 16 { secrets.insert(value) }
                    for answer in ["000000", "123456"] + delivery.messages.map(\.code) {
                        lines.append(try invoke(handler, try verifyEvent(after: created, answer: answer)).text)
                    }
                }
            }
        }
        for message in delivery.messages {
            secrets.formUnion([message.recipient, message.userName, message.code])
            if let link = message.link { secrets.insert(link) }
        }
        #expect(lines.count > 20)
        #expect(!secrets.isEmpty)
        for line in lines {
            for secret in secrets where secret.count >= 4 { #expect(!line.contains(secret), "\(secret) in \(line)") }
            #expect(!line.contains("@"), "\(line)")
            #expect(line.firstMatch(of: /\+\d{6,}/) == nil, "\(line)")
            // Every digit run is a timestamp or a measurement, never a six-digit code standing alone.
            #expect(line.firstMatch(of: /"\d{6}"/) == nil, "\(line)")
        }
    }
}

/// A delivery that always fails.
final class FailingDelivery: CodeDelivery, Sendable {
    struct Failure: Error {}
    func deliver(_ message: CodeMessage) throws { throw Failure() }
}

/// A state store that cannot be reached.
final class FailingStore: StateStore, Sendable {
    func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord? {
        throw .timedOut(operation: "GetItem", table: "sign-in-state", budget: .milliseconds(100))
    }

    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError) -> WriteOutcome {
        throw .timedOut(operation: "PutItem", table: "sign-in-state", budget: .milliseconds(100))
    }
}
