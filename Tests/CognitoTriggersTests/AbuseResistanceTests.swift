import Basics
import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import Platform
import ServiceClients
import TestSupport
import Testing

/// A step like a TOTP, with codes anyone can compute from the clock: `T<time step>`, one step early or late
/// accepted, each accepted once (its time step is the sequence).
struct TimeCodeStep: ChallengeStep {
    var name: String { "time-code" }
    var kind: ChallengeKind { ChallengeKind(rawValue: "TIME_CODE")! }
    var provesIdentity: Bool { true }

    func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: [:], sealing: .nonce)
    }

    func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        let step = context.now / 30
        for offset in -1...1 as ClosedRange<Int64> where answer == Self.code(step + offset) {
            return .correctOnce(sequence: step + offset)
        }
        return .wrong
    }

    static func code(_ step: Int64) -> String { "T\(step)" }
}

/// The second security review's findings, each through the trigger handler with the memory store.
extension SignInLimitsTests {
    func verifyResult(_ handler: CognitoTriggerHandler, _ create: CreateAuthChallengeEvent, answer: String) throws -> TriggerResult {
        try handler.handle(verifyEvent(after: create, answer: answer))
    }

    /// A handler for `email-or-sms-code` (`email-code|sms-code`), texts to the outbox, decoys without delay unless
    /// `extra` says otherwise.
    func channelChoiceHandler(
        _ extra: [String: String] = [:], time: MonotonicTime = .system
    ) throws -> CognitoTriggerHandler {
        try handler([
            "CHALLENGE_FLOW": "email-or-sms-code", "SMS_DELIVERY": "outbox", "DECOY_DELAY_MS": "0", "DECOY_DELAY_SMS_MS": "0",
        ].merging(extra) { $1 }, time: time)
    }

    @Test("a step that proves identity but delivers nothing (a TOTP) spends the failure budget across sessions")
    func identityStepsSpendTheBudget() throws {
        let handler = try handler(
            ["CHALLENGE_FLOW": "time-code", "MAX_FAILURES_PER_WINDOW": "10", "FAILURE_DELAY_BASE_SECONDS": "0"], steps: [TimeCodeStep()])
        var summaries: [String] = []
        for _ in 0..<20 {
            let session = try created(handler)
            for guess in 0..<3 {
                let result = try verifyResult(handler, session, answer: "guess-\(guess)")
                summaries.append(result.summary)
                clock.advance(1)
            }
        }
        #expect(summaries.filter { $0 == "answer wrong" }.count == 10, "\(Set(summaries))")
        #expect(summaries.filter { $0.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=10") }.count == 50)
        let session = try created(handler)
        #expect(try verify(handler, session, answer: TimeCodeStep.code(clock.read() / 30)) == false, "not even the right code")
    }

    @Test("an answer a step accepted once (a TOTP's time step) is refused the second time, and so is an older one")
    func acceptedAnswerIsUsedOnce() throws {
        let handler = try handler(["CHALLENGE_FLOW": "time-code"], steps: [TimeCodeStep()])
        let step = clock.read() / 30
        #expect(try verify(handler, try created(handler), answer: TimeCodeStep.code(step)))
        let replay = try verifyResult(handler, try created(handler), answer: TimeCodeStep.code(step))
        #expect(replay.summary == "answer rejected: it was accepted before, and may be used only once")
        #expect(try verify(handler, try created(handler), answer: TimeCodeStep.code(step - 1)) == false, "older than the last used")
        #expect(try verify(handler, try created(handler), answer: TimeCodeStep.code(step + 1)), "the next one is fresh")
    }

    @Test("one code verified from two sessions at once, by two handlers sharing the store: accepted once", arguments: 0..<30)
    func concurrentRightAnswersAcceptOnce(trial: Int) async throws {
        let store = SlowStore()
        let handlers = try (0..<2).map { _ in try handler(store: store) }
        let challenge = try created(handlers[0])
        let code = try #require(delivery.messages.last?.code)
        let event = try verifyEvent(after: challenge, answer: code)
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for handler in handlers {
                nonisolated(unsafe) let handler = handler
                group.addTask {
                    guard case .verify(let verified)? = try? handler.handle(event).event else { return false }
                    return verified.response.answerCorrect == true
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
    }

    @Test("40 wrong answers at once from 8 handlers sharing the store judge no more than the budget")
    func concurrentWrongAnswersStayWithinBudget() async throws {
        let store = SlowStore()
        let settings = ["MAX_FAILURES_PER_WINDOW": "10", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0"]
        let handlers = try (0..<8).map { _ in try handler(settings, store: store) }
        let event = try verifyEvent(after: try created(handlers[0]), answer: "000000")
        let outcomes = await withTaskGroup(of: [String].self) { group in
            for handler in handlers {
                nonisolated(unsafe) let handler = handler
                group.addTask {
                    (0..<5).map { _ in
                        do { return try handler.handle(event).summary } catch { return "error: \(error)" }
                    }
                }
            }
            return await group.reduce([]) { $0 + $1 }
        }
        #expect(outcomes.count == 40)
        #expect(outcomes.filter { $0 == "answer wrong" }.count == 10, "\(outcomes)")
        #expect(outcomes.allSatisfy { $0 == "answer wrong" || $0.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW") }, "\(outcomes)")
    }

    @Test("a channel the user cannot receive on neither blocks another channel nor spends the sends")
    func undeliveredChannelIsNotReused() throws {
        let handler = try channelChoiceHandler(["MAX_SENDS_PER_WINDOW": "1"])
        // jane has no phone: an attacker chooses sms-code; her own sign-in choosing email-code right after still
        // gets its code.
        let smsForJane = try Self.event("email-or-sms-code/12-create-sms-without-phone.json")
        let decoy = try created(handler, smsForJane)
        #expect(delivery.messages.isEmpty)
        #expect(decoy.response.publicChallengeParameters?["channel"] == "sms")
        let email = try created(handler, try Self.event("email-or-sms-code/08-create-code-by-email.json"))
        #expect(delivery.messages.map(\.channel) == [.email])
        #expect(email.response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")
        let code = try #require(delivery.messages.last?.code)
        #expect(try verify(handler, email, answer: code))
    }

    @Test("a phone-only user who first chose email-code gets the SMS code on choosing sms-code")
    func phoneOnlyUserGetsTheSMS() throws {
        let handler = try channelChoiceHandler()
        let emailForSam = try Self.event("email-or-sms-code/13-create-email-without-email.json")
        _ = try created(handler, emailForSam)
        #expect(delivery.messages.isEmpty)
        var sms = try #require(try JSONValue(parsing: emailForSam).objectValue)
        var request = try #require(sms["request"]?.objectValue)
        request["clientMetadata"] = ["method": "sms-code"]
        sms["request"] = .object(request)
        let challenge = try created(handler, JSONValue.object(sms).serialized())
        #expect(delivery.messages.map(\.channel) == [.sms])
        #expect(try verify(handler, challenge, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("user names that differ in case (a case-sensitive pool) are different users: keyed by sub")
    func caseVariantsDoNotShareARecord() throws {
        let handler = try handler()
        var other = try #require(try JSONValue(parsing: Self.create).objectValue)
        other["userName"] = "JANE"
        var request = try #require(other["request"]?.objectValue)
        var attributes = try #require(request["userAttributes"]?.objectValue)
        attributes["sub"] = "0a0b0c0d-1111-4222-8333-444455556666"
        attributes["email"] = "jane.other@example.org"
        request["userAttributes"] = .object(attributes)
        other["request"] = .object(request)
        _ = try created(handler)
        _ = try created(handler, JSONValue.object(other).serialized())
        #expect(delivery.messages.map(\.recipient) == ["jane.doe@example.com", "jane.other@example.org"])
    }

    @Test("wrong answers at the end of one window and the start of the next get one allowance, not two")
    func noBurstAtTheWindowBoundary() throws {
        let handler = try handler([
            "MAX_FAILURES_PER_WINDOW": "10", "FAILURE_WINDOW_SECONDS": "3600", "FAILURE_DELAY_BASE_SECONDS": "0",
            "FRESH_CODE_ATTEMPTS": "0",
        ])
        clock.advance(3600 - clock.read() % 3600 - 30)
        let challenge = try created(handler)
        var judged = 0
        for _ in 0..<20 {
            if try verifyResult(handler, challenge, answer: "000000").summary == "answer wrong" { judged += 1 }
            clock.advance(3)
        }
        #expect(judged == 10)
    }

    @Test("a real user with an unusable email is shown their own address masked, never a decoy from the user name")
    func unusableAddressIsMaskedNotDecoyed() throws {
        let handler = try handler(["DECOY_DELAY_MS": "0"])
        var event = try #require(try JSONValue(parsing: Self.event("email-code/17-create-unverified-email.json")).objectValue)
        event["userName"] = "7d4e1f52-0c3a-4b9e-9f1d-2a6b8c0e4d13"  // an internal id, as in pools that sign in by email
        let challenge = try created(handler, JSONValue.object(event).serialized())
        #expect(challenge.response.publicChallengeParameters?["destination"] == EmailMask.mask("jane.doe@example.com"))
        #expect(delivery.messages.isEmpty)
    }

    @Test("a Create for a channel the user cannot use waits as long as that channel's deliveries (SMS, not email)")
    func decoyWaitFollowsTheChannel() throws {
        let time = ManualMonotonicTime()
        let handler = try channelChoiceHandler(["DECOY_DELAY_SMS_MS": "300", "RESEND_AFTER_SECONDS": "0"], time: time.time)
        let smsForJane = try Self.event("email-or-sms-code/12-create-sms-without-phone.json")
        for _ in 0..<5 {
            _ = try created(handler, smsForJane)
            clock.advance(1)
        }
        // DECOY_DELAY_MS is 0: a wait drawn around 300 ms is the SMS channel's.
        let waits = time.pauses.sorted()
        #expect(waits.count == 5)
        #expect(waits[2] > .milliseconds(120), "median \(waits[2])")
    }
}

/// The memory store, a millisecond slower on every call: wide enough windows for concurrent handlers to meet in.
final class SlowStore: StateStore {
    private let store = MemoryStateStore()

    func read(_ key: String, now: Int64) -> StateRecord? {
        usleep(1000)
        return store.read(key, now: now)
    }

    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) -> WriteOutcome {
        usleep(1000)
        return store.write(key, record, expectedVersion: expectedVersion, now: now)
    }
}

/// SMS to numbers in the allowed countries only (`SMS_ALLOWED_COUNTRIES`), against SMS pumping.
extension SignInLimitsTests {
    @Test("a number outside SMS_ALLOWED_COUNTRIES gets no text and is answered like an unknown user; inside, it does")
    func smsCountries() throws {
        let sms = try Self.event("sms-code/02-create-code.json")
        let abroad = try handler(["CHALLENGE_FLOW": "sms-code", "SMS_ALLOWED_COUNTRIES": "44, +49", "DECOY_DELAY_SMS_MS": "0"])
        let refused = try abroad.handle(sms)
        #expect(delivery.messages.isEmpty)
        #expect(refused.warning?.contains("SMS_ALLOWED_COUNTRIES") == true, "\(refused.warning ?? "")")
        let home = try handler(["CHALLENGE_FLOW": "sms-code", "SMS_ALLOWED_COUNTRIES": "1,44"], store: MemoryStateStore())
        _ = try home.handle(sms)
        #expect(delivery.messages.map(\.recipient) == ["+15555550100"])
    }

    @Test("SMS_ALLOWED_COUNTRIES takes calling codes only; without it, a flow that texts by SNS warns at start")
    func smsCountriesSetting() throws {
        for bad in ["UK", "1,", "12345", "+"] {
            let error = #expect(throws: ConfigurationError.self) {
                try TriggerConfiguration(environment: [
                    "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "CHALLENGE_FLOW": "sms-code",
                    "SMS_ALLOWED_COUNTRIES": bad,
                ])
            }
            #expect(error?.description.hasPrefix("SMS_ALLOWED_COUNTRIES") == true, "\(bad): \(String(describing: error))")
        }
        let unrestricted = try TriggerConfiguration(environment: [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "CHALLENGE_FLOW": "sms-code", "SMS_DELIVERY": "sns",
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL", "AWS_SECRET_ACCESS_KEY": "local-secret",
        ])
        #expect(unrestricted.startupWarnings.contains { $0.hasPrefix("SMS_ALLOWED_COUNTRIES is not set") })
    }
}

/// Sign-in links whose token would land in server logs.
extension SignInLimitsTests {
    @Test("a MAGIC_LINK_URL with the token in the query string warns at start; one with it in the fragment does not")
    func magicLinkTokenInQueryWarns() throws {
        func warnings(_ template: String) throws -> [String] {
            try TriggerConfiguration(environment: [
                "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "CHALLENGE_FLOW": "magic-link",
                "MAGIC_LINK_URL": template,
            ]).startupWarnings
        }
        #expect(try warnings("https://app.example.com/sign-in?token={token}").contains { $0.hasPrefix("MAGIC_LINK_URL puts {token} where the browser sends it") })
        #expect(try warnings("https://app.example.com/sign-in#token={token}").isEmpty)
    }
}
