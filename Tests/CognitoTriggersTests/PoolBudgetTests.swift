import ChallengeFlows
import CognitoTriggers
import Foundation
import Testing
import TestSupport

/// The pool-wide budgets (`POOL_MAX_*`), against floods spread over many user names.
extension SignInLimitsTests {
    /// `template` (a Create event of jane's) for another user: the same pool, another name, `sub`, address and phone.
    static func create(_ template: [UInt8], forUser number: Int) throws -> [UInt8] {
        var event = try #require(try JSONSerialization.jsonObject(with: Data(template)) as? [String: Any])
        event["userName"] = "user\(number)"
        var request = try #require(event["request"] as? [String: Any])
        var attributes = try #require(request["userAttributes"] as? [String: Any])
        attributes["sub"] = "00000000-0000-4000-8000-\(String(format: "%012d", number))"
        attributes["email"] = "user\(number)@example.com"
        if attributes["phone_number"] != nil { attributes["phone_number"] = "+1206555\(String(format: "%04d", number))" }
        request["userAttributes"] = attributes
        event["request"] = request
        return Array(try JSONSerialization.data(withJSONObject: event))
    }

    @Test("POOL_MAX_SENDS_PER_WINDOW: a flood of sign-ins over 200 user names sends no more than the budget; the window moving on sends again")
    func poolSendBudget() throws {
        let handler = try handler(["POOL_MAX_SENDS_PER_WINDOW": "16", "POOL_WINDOW_SECONDS": "3600", "DECOY_DELAY_MS": "0"])
        var summaries: [String] = []
        for number in 0..<200 {
            summaries.append(try handler.handle(try Self.create(Self.create, forUser: number)).summary)
        }
        // Eight shards of two: 200 names fill every one.
        #expect(delivery.messages.count == 16)
        #expect(summaries.filter { $0.contains("nothing sent: the pool reached POOL_MAX_SENDS_PER_WINDOW=16") }.count == 184)
        clock.advance(7200)
        _ = try handler.handle(try Self.create(Self.create, forUser: 500))
        #expect(delivery.messages.count == 17)
    }

    @Test("a withheld message is not the user's live code: once the pool allows again, the same user gets a code that verifies")
    func withheldSendIsWithdrawn() throws {
        let handler = try handler([
            "POOL_MAX_SENDS_PER_WINDOW": "8", "POOL_WINDOW_SECONDS": "60", "RESEND_AFTER_SECONDS": "3600", "DECOY_DELAY_MS": "0",
        ])
        for number in 0..<100 { _ = try handler.handle(try Self.create(Self.create, forUser: number)) }
        #expect(delivery.messages.count == 8)
        let lastUser = try Self.create(Self.create, forUser: 99)
        let withheld = try created(handler, lastUser)
        #expect(withheld.response.publicChallengeParameters?["destination"] == "u***@e***.com")
        // Two pool windows later, while the withheld code would still be valid and within RESEND_AFTER_SECONDS.
        clock.advance(130)
        let sent = try created(handler, lastUser)
        #expect(delivery.messages.count == 9, "not reused as 'still valid': it was never sent")
        #expect(try verify(handler, sent, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("one user past the per-user send throttle takes nothing more from the pool's sends")
    func throttledUserDoesNotSpendThePool() throws {
        let handler = try handler([
            "POOL_MAX_SENDS_PER_WINDOW": "80", "MAX_SENDS_PER_WINDOW": "3", "RESEND_AFTER_SECONDS": "0", "DECOY_DELAY_MS": "0",
        ])
        for _ in 0..<40 { _ = try created(handler) }
        #expect(delivery.messages.count == 3)
        for number in 0..<400 { _ = try handler.handle(try Self.create(Self.create, forUser: number)) }
        // Each shard allows 10; jane's took 3 of hers, so the pool sends 80 in all, not 80 + what jane tried.
        #expect(delivery.messages.count == 80)
    }

    @Test("POOL_MAX_SMS_PER_WINDOW caps text messages across the pool; email codes still go out")
    func poolTextMessageBudget() throws {
        let handler = try handler([
            "CHALLENGE_FLOW": "sms-code", "SMS_DELIVERY": "outbox", "POOL_MAX_SMS_PER_WINDOW": "8", "DECOY_DELAY_SMS_MS": "0",
        ])
        let smsCreate = try Self.event("sms-code/02-create-code.json")
        for number in 0..<100 { _ = try handler.handle(try Self.create(smsCreate, forUser: number)) }
        #expect(delivery.messages.count == 8)
        #expect(delivery.messages.allSatisfy { $0.channel == .sms })
        let emailHandler = try self.handler(["POOL_MAX_SMS_PER_WINDOW": "8", "DECOY_DELAY_MS": "0"])
        for number in 0..<20 { _ = try emailHandler.handle(try Self.create(Self.create, forUser: number)) }
        #expect(delivery.messages.count == 28)
    }

    @Test("POOL_MAX_FAILURES_PER_WINDOW: wrong answers over many users are judged up to the budget; then every answer is refused, right ones too")
    func poolFailureBudget() throws {
        let handler = try handler(["POOL_MAX_FAILURES_PER_WINDOW": "8", "DECOY_DELAY_MS": "0"])
        var summaries: [String] = []
        for number in 0..<100 {
            let challenge = try created(handler, try Self.create(Self.create, forUser: number))
            summaries.append(try verifyResult(handler, challenge, answer: "000000x").summary)
        }
        #expect(summaries.filter { $0 == "answer wrong" }.count == 8, "\(Set(summaries))")
        #expect(summaries.filter { $0.hasPrefix("answer not judged: the pool reached POOL_MAX_FAILURES_PER_WINDOW=8") }.count == 92)
        let user = try Self.create(Self.create, forUser: 7)
        let challenge = try created(handler, user)
        let code = try #require(delivery.messages.last?.code)
        #expect(try verify(handler, challenge, answer: code) == false, "a right answer is refused too: it would tell a guesser")
        clock.advance(7200)
        let fresh = try created(handler, user)
        #expect(try verify(handler, fresh, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("a guesser past one user's MAX_FAILURES_PER_WINDOW takes nothing more from the pool's failure budget")
    func oneUsersGuesserDoesNotSpendThePool() throws {
        let handler = try handler([
            "POOL_MAX_FAILURES_PER_WINDOW": "24", "MAX_FAILURES_PER_WINDOW": "2", "DECOY_DELAY_MS": "0",
            "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0",
        ])
        let challenge = try created(handler)
        let summaries = try (0..<10).map { _ in try verifyResult(handler, challenge, answer: "000000x").summary }
        #expect(summaries.filter { $0 == "answer wrong" }.count == 2)
        #expect(summaries.filter { $0.hasPrefix("answer not judged: MAX_FAILURES_PER_WINDOW=2") }.count == 8, "\(summaries)")
    }

    @Test("80 wrong answers at once from 8 handlers over 200 users judge no more than the pool's budget")
    func concurrentFloodStaysWithinPoolBudget() async throws {
        let store = SlowStore()
        let handlers = try (0..<8).map { _ in try handler(["POOL_MAX_FAILURES_PER_WINDOW": "16", "DECOY_DELAY_MS": "0"], store: store) }
        let events = try (0..<200).map { try verifyEvent(after: try created(handlers[0], try Self.create(Self.create, forUser: $0)), answer: "000000x") }
        let summaries = await withTaskGroup(of: [String].self) { group in
            for (index, handler) in handlers.enumerated() {
                nonisolated(unsafe) let handler = handler
                let mine = events.enumerated().filter { $0.offset % 8 == index }.map(\.element)
                group.addTask {
                    mine.map { event in
                        do { return try handler.handle(event).summary } catch { return "error: \(error)" }
                    }
                }
            }
            return await group.reduce([]) { $0 + $1 }
        }
        #expect(summaries.count == 200)
        #expect(summaries.filter { $0 == "answer wrong" }.count == 16, "\(Set(summaries))")
        #expect(summaries.allSatisfy { $0 == "answer wrong" || $0.hasPrefix("answer not judged: the pool reached") })
    }
}
