import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import Platform
import ServiceClients
import Synchronization
import TestSupport
import Testing

/// The limits across sign-ins, through the trigger handler with an in-memory store and a clock the test moves.
@Suite("Limits across sign-ins (memory store, injected clock)")
struct SignInLimitsTests {
    let clock = TestClock()
    let store = MemoryStateStore()
    let delivery = RecordingDelivery()

    func handler(
        _ extra: [String: String] = [:], steps: [any ChallengeStep] = [], store: (any StateStore)? = nil,
        delivery: RecordingDelivery? = nil, time: MonotonicTime = .system
    ) throws -> CognitoTriggerHandler {
        let environment = [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "STATE_STORE": "memory",
        ].merging(extra) { $1 }
        return try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: environment, steps: steps), delivery: delivery ?? self.delivery,
            stateStore: store ?? self.store, clock: clock.read, time: time)
    }

    static func event(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent(name)))
    }

    /// A new sign-in's first Create for jane (or an unknown user).
    static let create = (try? event("email-code/02-create-code.json")) ?? []
    static let createUnknown = (try? event("email-code/13-create-user-not-found.json")) ?? []

    func created(_ handler: CognitoTriggerHandler, _ bytes: [UInt8] = create) throws -> CreateAuthChallengeEvent {
        guard case .create(let event) = try handler.handle(bytes).event else { throw CorpusError(message: "not a Create") }
        return event
    }

    func verify(_ handler: CognitoTriggerHandler, _ create: CreateAuthChallengeEvent, answer: String) throws -> Bool {
        guard case .verify(let verified) = try handler.handle(verifyEvent(after: create, answer: answer)).event else { return false }
        return verified.response.answerCorrect ?? false
    }

    @Test("one live code: a new sign-in within RESEND_AFTER_SECONDS reuses it; after that a resend replaces it")
    func oneLiveCode() throws {
        let handler = try handler()
        let first = try created(handler)
        clock.advance(12)
        let second = try created(handler)
        #expect(delivery.messages.count == 1)
        #expect(second.response.privateChallengeParameters == first.response.privateChallengeParameters)
        #expect(second.response.challengeMetadata == first.response.challengeMetadata)
        #expect(second.response.publicChallengeParameters?["expiresInSeconds"] == "168")
        let summary = try handler.handle(Self.create).summary
        #expect(summary.contains("nothing sent again: the message sent 12 s ago is still valid"), "\(summary)")

        clock.advance(60)
        let resent = try created(handler)
        #expect(delivery.messages.count == 2)
        #expect(resent.response.challengeMetadata != first.response.challengeMetadata)
        let oldCode = try #require(delivery.messages.first?.code)
        let newCode = try #require(delivery.messages.last?.code)
        if oldCode != newCode { #expect(try verify(handler, first, answer: oldCode) == false, "the replaced code is dead") }
        #expect(try verify(handler, resent, answer: newCode))
        #expect(try verify(handler, resent, answer: newCode) == false, "a code verifies once")
    }

    @Test("a Create that Cognito repeats returns the same challenge and sends nothing more")
    func retriedCreate() throws {
        let handler = try handler()
        let first = try handler.handle(Self.create).responseBytes
        let retried = try handler.handle(Self.create).responseBytes
        #expect(retried == first)
        #expect(delivery.messages.count == 1)
    }

    @Test("the send throttle: at most MAX_SENDS_PER_WINDOW emails; past it challenges look the same and never verify")
    func sendThrottle() throws {
        let handler = try handler(["MAX_SENDS_PER_WINDOW": "5", "SEND_WINDOW_SECONDS": "3600", "RESEND_AFTER_SECONDS": "60"])
        var challenges: [CreateAuthChallengeEvent] = []
        for _ in 0..<20 {
            challenges.append(try created(handler))
            clock.advance(61)
        }
        #expect(delivery.messages.count == 5)
        let keys = Set(challenges.map { Set($0.response.publicChallengeParameters?.keys ?? [:].keys) })
        #expect(keys.count == 1, "throttled challenges have the same public parameters")
        #expect(challenges.allSatisfy { $0.response.publicChallengeParameters?["destination"] == "j***@e***.com" })
        // The last challenge was never sent; even the last code that was sent does not answer it.
        let lastSent = try #require(delivery.messages.last?.code)
        #expect(try verify(handler, try #require(challenges.last), answer: lastSent) == false)

        clock.advance(3600)
        _ = try created(handler)
        #expect(delivery.messages.count == 6, "a new window sends again")
    }

    @Test("the failure budget: past MAX_FAILURES_PER_WINDOW wrong answers over all sessions, nothing verifies")
    func failureBudget() throws {
        let handler = try handler([
            "MAX_FAILURES_PER_WINDOW": "10", "FAILURE_WINDOW_SECONDS": "3600", "FAILURE_DELAY_BASE_SECONDS": "0",
            "FRESH_CODE_ATTEMPTS": "0",
        ])
        let challenge = try created(handler)
        let code = try #require(delivery.messages.first?.code)
        for _ in 0..<10 {
            #expect(try verify(handler, challenge, answer: "000000") == false)
            clock.advance(5)
        }
        #expect(try verify(handler, challenge, answer: code) == false, "the right code after the budget is spent")
        clock.advance(3600)
        let fresh = try created(handler)
        let freshCode = try #require(delivery.messages.last?.code)
        #expect(try verify(handler, fresh, answer: freshCode), "the next window judges answers again")
    }

    @Test("unknown users get records too: reuse and throttle look the same as for real users")
    func unknownUsersAlike() throws {
        let handler = try handler(["MAX_SENDS_PER_WINDOW": "2", "DECOY_DELAY_MS": "0"])
        let first = try created(handler, Self.createUnknown)
        let second = try created(handler, Self.createUnknown)
        #expect(second.response.challengeMetadata == first.response.challengeMetadata, "reused, as a real user's code is")
        #expect(delivery.messages.isEmpty)
        let key = StateKey.derive(secret: [], userPoolId: "", userName: "")
        #expect(store.read(key, now: clock.read()) == nil, "records are keyed by a keyed hash, not by the name")
    }

    @Test("eight Creates at once for one user, from eight handlers sharing the store, send one email")
    func concurrentCreates() async throws {
        let handlers = try (0..<8).map { _ in try handler() }
        let delivery = delivery
        await withTaskGroup(of: Void.self) { group in
            for handler in handlers {
                nonisolated(unsafe) let handler = handler
                group.addTask { _ = try? handler.handle(Self.create) }
            }
        }
        #expect(delivery.messages.count == 1)
    }

    /// A store that cannot be reached.
    final class DownStore: StateStore {
        func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord? {
            throw .timedOut(operation: "GetItem", table: "sign-in-state", budget: .milliseconds(1000))
        }
        func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError) -> WriteOutcome {
            throw .timedOut(operation: "PutItem", table: "sign-in-state", budget: .milliseconds(1000))
        }
    }

    @Test("a store that cannot be used fails Create closed: a clear error, nothing sent")
    func storeDown() throws {
        let handler = try handler(store: DownStore())
        let error = #expect(throws: TriggerError.self) { try handler.handle(Self.create) }
        #expect(error?.errorType == "Function.StateStoreUnavailable")
        #expect(error?.description.contains("nothing was sent") == true)
        #expect(delivery.messages.isEmpty)
    }

    @Test("limits are configured by their variables; bad values name them", arguments: [
        "RESEND_AFTER_SECONDS", "MAX_SENDS_PER_WINDOW", "SEND_WINDOW_SECONDS", "MAX_FAILURES_PER_WINDOW", "FAILURE_WINDOW_SECONDS",
        "POOL_MAX_SENDS_PER_WINDOW", "POOL_MAX_SMS_PER_WINDOW", "POOL_MAX_FAILURES_PER_WINDOW", "POOL_WINDOW_SECONDS",
        "FAILURE_DELAY_BASE_SECONDS", "FAILURE_DELAY_MAX_SECONDS", "FRESH_CODE_ATTEMPTS",
    ])
    func badLimit(variable: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try TriggerConfiguration(environment: ["CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", variable: "-1"])
        }
        #expect(error?.description.hasPrefix(variable) == true)
    }
}
