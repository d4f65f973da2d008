import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Invoker
import ServiceClients
import TestSupport
import Testing

/// Rising delays after wrong answers and a fresh small budget for a delivered code: what keeps someone who knows a
/// user name from locking that user out with the failure budget.
extension SignInLimitsTests {
    static let tooEarly = "answer not judged: too soon after a wrong answer"
    /// Never a six-digit code.
    static let wrong = "000000x"

    func summaries(_ handler: CognitoTriggerHandler, _ challenge: CreateAuthChallengeEvent, answers: Int) throws -> [String] {
        try (0..<answers).map { _ in try verifyResult(handler, challenge, answer: Self.wrong).summary }
    }

    @Test("the delay before the next answer: none after the first two wrong answers, then the base doubling up to the longest")
    func delaySchedule() throws {
        let defaults = try TriggerConfiguration(environment: ["CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox"]).limits
        #expect((1...10).map(defaults.failureDelay(afterFailures:)) == [0, 0, 1, 2, 4, 8, 16, 32, 60, 60])
        #expect(defaults.freshCodeAttempts == 3)
        var off = defaults
        off.failureDelayBaseSeconds = 0
        #expect((1...10).allSatisfy { off.failureDelay(afterFailures: $0) == 0 })
        #expect(defaults.failureDelay(afterFailures: 10_000) == 60, "no overflow far past the cap")
    }

    @Test("after each wrong answer past the second, the next is judged only after a rising delay; sooner, even the right one is refused unjudged")
    func risingDelays() throws {
        let handler = try handler([
            "FAILURE_DELAY_BASE_SECONDS": "1", "FAILURE_DELAY_MAX_SECONDS": "4", "MAX_FAILURES_PER_WINDOW": "20",
        ])
        let challenge = try created(handler)
        let code = try #require(delivery.messages.last?.code)
        #expect(try summaries(handler, challenge, answers: 3) == ["answer wrong", "answer wrong", "answer wrong"])
        let early = try verifyResult(handler, challenge, answer: code)
        #expect(early.summary.hasPrefix(Self.tooEarly), "\(early.summary)")
        #expect(early.summary.hasSuffix("judged again in 1 s"))
        #expect(early.facts.outcome == .tooEarly)
        guard case .verify(let refused) = early.event else { throw CorpusError(message: "not a Verify") }
        #expect(refused.response.answerCorrect == false)
        // Each delay is counted from the wrong answer that set it: 1 s, then 2 s, then 4 s, then 4 s (the longest).
        var judged: [String] = []
        for (wait, delay) in [(1, 2), (2, 4), (4, 4)] as [(Int64, Int64)] {
            clock.advance(wait)
            judged += try summaries(handler, challenge, answers: 1)
            clock.advance(delay - 1)
            let soon = try verifyResult(handler, challenge, answer: code).summary
            #expect(soon == "\(Self.tooEarly) (FAILURE_DELAY_BASE_SECONDS); answers are judged again in 1 s")
        }
        #expect(judged == ["answer wrong", "answer wrong", "answer wrong"])
        clock.advance(1)
        #expect(try verify(handler, challenge, answer: code), "judged once the delay is over; the early answers cost nothing")
    }

    @Test("an unknown user's answers wait for the same delays, and are refused in the same words")
    func unknownUsersWaitAlike() throws {
        let settings = ["FAILURE_DELAY_BASE_SECONDS": "30", "DECOY_DELAY_MS": "0"]
        let real = try handler(settings)
        let unknown = try handler(settings, store: MemoryStateStore())
        let realAnswers = try summaries(real, try created(real), answers: 4)
        let unknownAnswers = try summaries(unknown, try created(unknown, Self.createUnknown), answers: 4)
        #expect(realAnswers.last?.hasPrefix(Self.tooEarly) == true, "\(realAnswers)")
        #expect(unknownAnswers.last == realAnswers.last, "\(unknownAnswers)")
        #expect(unknownAnswers.dropLast().allSatisfy { $0 == "answer rejected (unknown user)" }, "\(unknownAnswers)")
    }

    @Test("40 wrong answers at once from 8 handlers sharing the store: the delay is in the write that judges, so 3 are judged")
    func concurrentAnswersWaitForTheDelay() async throws {
        let store = SlowStore()
        let settings = ["FAILURE_DELAY_BASE_SECONDS": "600", "FAILURE_DELAY_MAX_SECONDS": "600", "MAX_FAILURES_PER_WINDOW": "100"]
        let handlers = try (0..<8).map { _ in try handler(settings, store: store) }
        let event = try verifyEvent(after: try created(handlers[0]), answer: Self.wrong)
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
        #expect(outcomes.filter { $0 == "answer wrong" }.count == 3, "\(outcomes)")
        #expect(outcomes.filter { $0.hasPrefix(Self.tooEarly) }.count == 37, "\(outcomes)")
    }

    @Test("an answer refused as too early takes nothing from the pool's failure budget")
    func tooEarlyTakesNothingFromThePool() throws {
        // Each of the pool's eight shards allows 5; jane's ten answers are judged three times.
        let handler = try handler(["FAILURE_DELAY_BASE_SECONDS": "100", "POOL_MAX_FAILURES_PER_WINDOW": "40"])
        let challenge = try created(handler)
        let code = try #require(delivery.messages.last?.code)
        #expect(try summaries(handler, challenge, answers: 10).filter { $0 == "answer wrong" }.count == 3)
        clock.advance(100)
        #expect(try verify(handler, challenge, answer: code), "the pool's share still has room")
    }

    @Test("with the failure budget spent, a newly delivered code gets FRESH_CODE_ATTEMPTS answers: the user who receives it signs in")
    func freshCodeLetsTheUserIn() throws {
        let handler = try handler(["MAX_FAILURES_PER_WINDOW": "10", "FAILURE_DELAY_BASE_SECONDS": "0"])
        // Someone who knows the name spends the window's budget, and the code's own budget too.
        let attacker = try created(handler)
        let spent = try summaries(handler, attacker, answers: 20)
        #expect(spent.filter { $0 == "answer wrong" }.count == 13, "\(spent)")
        #expect(spent.last?.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=10") == true)
        clock.advance(60)
        let user = try created(handler)
        #expect(delivery.messages.count == 2)
        #expect(try verify(handler, user, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("with the default settings, someone who spends a user's budget as fast as the delays allow and leaves does not lock them out")
    func defaultsKeepTheUserIn() throws {
        let handler = try handler()
        let attacker = try created(handler)
        let start = clock.read()
        // One wrong answer a second until none is judged any more: the budget of ten, then the code's own three
        // (the code expires on the way; an answer after expiry still counts as wrong).
        var summaries: [String] = []
        repeat {
            summaries.append(try verifyResult(handler, attacker, answer: Self.wrong).summary)
            clock.advance(1)
        } while summaries.last?.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=10") == false && summaries.count < 3600
        #expect(summaries.filter { !$0.hasPrefix("answer not judged") }.count == 13, "\(Set(summaries))")
        #expect(clock.read() - start >= 1 + 2 + 4 + 8 + 16 + 32 + 60 * 4, "the delays stretched it over five minutes")
        clock.advance(61)
        let user = try created(handler)
        #expect(delivery.messages.count == 2)
        #expect(try verify(handler, user, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("past the failure budget each delivered code gives at most FRESH_CODE_ATTEMPTS guesses; a reused code none; the send throttle bounds them")
    func freshBudgetIsSmallAndBounded() throws {
        let handler = try handler([
            "MAX_FAILURES_PER_WINDOW": "4", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "3",
            "MAX_SENDS_PER_WINDOW": "4", "SEND_WINDOW_SECONDS": "3600", "RESEND_AFTER_SECONDS": "60",
        ])
        #expect(try summaries(handler, try created(handler), answers: 10).filter { $0 == "answer wrong" }.count == 7)
        var judgedPerRound: [Int] = []
        for _ in 0..<5 {
            clock.advance(61)
            var answers = try summaries(handler, try created(handler), answers: 5)
            clock.advance(5)
            answers += try summaries(handler, try created(handler), answers: 2)  // the same code, reused
            judgedPerRound.append(answers.filter { $0 == "answer wrong" }.count)
        }
        #expect(judgedPerRound == [3, 3, 3, 0, 0], "three more codes delivered, then the throttle")
        #expect(delivery.messages.count == 4)
    }

    @Test("a code delivered while the user was locked out cannot be reached through another code's challenge")
    func freshBudgetBelongsToTheLiveCode() throws {
        let handler = try handler(["MAX_FAILURES_PER_WINDOW": "2", "FAILURE_DELAY_BASE_SECONDS": "0", "RESEND_AFTER_SECONDS": "0"])
        let old = try created(handler)
        _ = try summaries(handler, old, answers: 5)
        let live = try created(handler)
        let code = try #require(delivery.messages.last?.code)
        let answer = try verifyResult(handler, old, answer: code)
        #expect(answer.summary.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=2"), "\(answer.summary)")
        #expect(try verify(handler, live, answer: code))
    }
}
