import ChallengeFlows
import Testing

/// The pool budgets and the withdrawal of a send, as pure decisions on records: what the function then writes.
@Suite("Pool budgets and withdrawn sends")
struct PoolDecisionTests {
    static let now: Int64 = 1_763_800_000

    static func limits(poolSends: Int64) -> SignInLimits {
        var limits = SignInLimits()
        limits.pool.maxSendsPerWindow = poolSends
        return limits
    }

    @Test("a shard counts up to its share of the budget (rounded up), then refuses and writes nothing")
    func shardBudget() {
        let limits = Self.limits(poolSends: 17)  // 17 over 8 shards: 3 each
        #expect(PoolCount.sends.shardBudget(in: limits.pool) == 3)
        var record: StateRecord?
        for _ in 0..<3 {
            let (reserved, changed) = limits.poolReservation(record, count: .sends, now: Self.now)
            #expect(reserved)
            record = changed
        }
        #expect(limits.poolSpent(record, count: .sends, now: Self.now))
        let (reserved, changed) = limits.poolReservation(record, count: .sends, now: Self.now)
        #expect(!reserved && changed == nil)
        // Two windows on, the count has slid out.
        #expect(!limits.poolSpent(record, count: .sends, now: Self.now + 2 * limits.pool.windowSeconds))
    }

    @Test("withdrawing a send un-names the live code and gives the send back; a record naming another seal stays")
    func withdrawal() throws {
        let limits = SignInLimits()
        let seal = ChallengeSeal(
            kind: .emailCode, stepIndex: 0, expiresAt: Self.now + 180, answerHash: Array(repeating: 1, count: 32), keyID: nil)
        let (decision, sent) = limits.sendDecision(
            nil, seal: seal, channel: .email, delivers: true, admitsStepUp: false, now: Self.now)
        #expect(decision == .proceed)
        let record = try #require(sent)
        #expect(SlidingCount(record, "sends", window: limits.sendWindowSeconds, now: Self.now).value == 1)

        let withdrawn = try #require(limits.sendWithdrawal(record, seal: seal, now: Self.now))
        #expect(withdrawn.liveSeal == nil)
        #expect(SlidingCount(withdrawn, "sends", window: limits.sendWindowSeconds, now: Self.now).value == 0)

        let other = ChallengeSeal(
            kind: .emailCode, stepIndex: 0, expiresAt: Self.now + 180, answerHash: Array(repeating: 2, count: 32), keyID: nil)
        #expect(limits.sendWithdrawal(record, seal: other, now: Self.now) == nil)
        #expect(limits.sendWithdrawal(nil, seal: seal, now: Self.now) == nil)
    }
}
