import ChallengeCrypto
import ChallengeFlows
import ServiceClients

/// Which pool budget a reservation draws on.
enum PoolCount: String {
    case sends
    case textMessages = "sms"
    case failures

    func budget(in budgets: PoolBudgets) -> Int64 {
        switch self {
        case .sends: budgets.maxSendsPerWindow
        case .textMessages: budgets.maxTextMessagesPerWindow
        case .failures: budgets.maxFailuresPerWindow
        }
    }
}

extension SignInLimiter {
    /// Takes one from each pool budget in `counts` that is on, each with one conditional write of its shard, and says
    /// which budget was spent, if one was (the ones taken before it stay taken: a flood costs budget either way).
    func reservePool(_ counts: [PoolCount], user: UserIdentity, userKey: String, now: Int64) throws(StateStoreError) -> PoolCount? {
        for count in counts where count.budget(in: limits.pool) > 0 {
            let shardBudget = shareOfBudget(count)
            let reserved = try update(poolKey(count, user: user, userKey: userKey), now: now) { current in
                let record = current ?? StateRecord(fields: [:], expiresAt: now)
                let used = SlidingCount(record, "n", window: limits.pool.windowSeconds, now: now)
                guard used.value < shardBudget else { return (false, nil) }
                var changed = record
                used.adding(1, to: &changed)
                return (true, changed)
            }
            if !reserved { return count }
        }
        return nil
    }

    /// True when the pool's failure budget is spent for this user's shard (read, not written: a right answer takes
    /// nothing from it, and a wrong one reserves with ``reservePool(_:user:userKey:now:)``).
    func poolFailuresSpent(user: UserIdentity, userKey: String, now: Int64) throws(StateStoreError) -> Bool {
        guard limits.pool.maxFailuresPerWindow > 0 else { return false }
        let shardBudget = shareOfBudget(.failures)
        return try update(poolKey(.failures, user: user, userKey: userKey), now: now) { current in
            let record = current ?? StateRecord(fields: [:], expiresAt: now)
            return (SlidingCount(record, "n", window: limits.pool.windowSeconds, now: now).value >= shardBudget, nil)
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

    /// Undoes a ``decideSend(key:seal:channel:delivers:admitsStepUp:now:)`` that said `.proceed` for `seal` when the message then
    /// could not go out because a pool budget was spent: the record stops naming the seal as a delivered live code,
    /// and the user's send is given back.
    func withdrawSend(key: String, seal: ChallengeSeal, now: Int64) throws(StateStoreError) {
        try update(key, now: now) { current in
            guard let record = current, record.liveSeal == seal else { return ((), nil) }
            var changed = record
            changed.fields["seal"] = nil
            changed.fields["delivered"] = .number(0)
            changed.fields["fresh"] = nil
            let sends = SlidingCount(record, "sends", window: limits.sendWindowSeconds, now: now)
            sends.adding(sends.current > 0 ? -1 : 0, to: &changed)
            return ((), changed)
        }
    }

    private func shareOfBudget(_ count: PoolCount) -> Int64 {
        let shards = Int64(PoolBudgets.shards)
        return (count.budget(in: limits.pool) + shards - 1) / shards
    }

    /// The shard of `count` in the user's pool that the user with record key `userKey` counts in: the same one every
    /// time.
    private func poolKey(_ count: PoolCount, user: UserIdentity, userKey: String) -> String {
        let shard = Int(HMACSHA256.authenticationCode(key: recordKey, message: userKey)[0]) % PoolBudgets.shards
        return StateKey.derive(
            secret: recordKey, userPoolId: user.userPoolId, userName: "pool\u{0}\(count.rawValue)\u{0}\(shard)")
    }
}
