import ChallengeCrypto
import ChallengeFlows
import ServiceClients

extension SignInLimiter {
    /// Takes one from each pool budget in `counts` that is on, each with one conditional write of its shard, and says
    /// which budget was spent, if one was (the ones taken before it stay taken: a flood costs budget either way).
    func reservePool(_ counts: [PoolCount], user: UserIdentity, userKey: String, now: Int64) throws(StateStoreError) -> PoolCount? {
        for count in counts where count.budget(in: limits.pool) > 0 {
            let reserved = try update(poolKey(count, user: user, userKey: userKey), now: now) {
                limits.poolReservation($0, count: count, now: now)
            }
            if !reserved { return count }
        }
        return nil
    }

    /// True when the pool's failure budget is spent for this user's shard (read, not written: a right answer takes
    /// nothing from it, and a wrong one reserves with ``reservePool(_:user:userKey:now:)``).
    func poolFailuresSpent(user: UserIdentity, userKey: String, now: Int64) throws(StateStoreError) -> Bool {
        guard limits.pool.maxFailuresPerWindow > 0 else { return false }
        return try update(poolKey(.failures, user: user, userKey: userKey), now: now) {
            (limits.poolSpent($0, count: .failures, now: now), nil)
        }
    }

    /// True when the user with record `key` would have an answer to `seal` refused unjudged (the failure budget
    /// spent, too soon after a wrong answer, not the live code); only asked when the pool's failure budget is on.
    func refusesUnjudged(
        key: String, seal: ChallengeSeal, requiresLiveCode: Bool, passedStepUp: Bool, now: Int64
    ) throws(StateStoreError) -> Bool {
        guard limits.pool.maxFailuresPerWindow > 0 else { return false }
        return try update(key, now: now) { current in
            guard case .refuse = limits.gate(
                current, seal: seal, requiresLiveCode: requiresLiveCode, passedStepUp: passedStepUp, now: now)
            else {
                return (false, nil)
            }
            return (true, nil)
        }
    }

    /// Carries out ``SignInLimits/sendWithdrawal(_:seal:now:)``: a send the pool's budget stopped is given back.
    func withdrawSend(key: String, seal: ChallengeSeal, now: Int64) throws(StateStoreError) {
        try update(key, now: now) { ((), limits.sendWithdrawal($0, seal: seal, now: now)) }
    }

    /// The shard of `count` in the user's pool that the user with record key `userKey` counts in: the same one every
    /// time.
    private func poolKey(_ count: PoolCount, user: UserIdentity, userKey: String) -> String {
        let shard = Int(HMACSHA256.authenticationCode(key: recordKey, message: userKey)[0]) % PoolBudgets.shards
        return StateKey.derive(
            secret: recordKey, userPoolId: user.userPoolId, userName: "pool\u{0}\(count.rawValue)\u{0}\(shard)")
    }
}
