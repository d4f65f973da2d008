/// Which pool budget a reservation draws on; its raw value names the count's records.
public enum PoolCount: String, Sendable, CaseIterable {
    case sends
    case textMessages = "sms"
    case failures

    /// The budget for the whole pool (0: off).
    public func budget(in budgets: PoolBudgets) -> Int64 {
        switch self {
        case .sends: budgets.maxSendsPerWindow
        case .textMessages: budgets.maxTextMessagesPerWindow
        case .failures: budgets.maxFailuresPerWindow
        }
    }

    /// What each of the ``PoolBudgets/shards`` records may count: the budget shared out, rounded up.
    public func shardBudget(in budgets: PoolBudgets) -> Int64 {
        let shards = Int64(PoolBudgets.shards)
        return (budget(in: budgets) + shards - 1) / shards
    }
}

extension SignInLimits {
    /// Takes one from the shard of `count` that `current` is (nil: none yet): true with the record to write when the
    /// shard had some left, false with nothing to write when it was spent.
    public func poolReservation(_ current: StateRecord?, count: PoolCount, now: Int64) -> (Bool, StateRecord?) {
        let record = current ?? StateRecord(fields: [:], expiresAt: now)
        let used = SlidingCount(record, "n", window: pool.windowSeconds, now: now)
        guard used.value < count.shardBudget(in: pool) else { return (false, nil) }
        var changed = record
        used.adding(1, to: &changed)
        return (true, changed)
    }

    /// True when the shard of `count` that `current` is has nothing left; a read, nothing to write.
    public func poolSpent(_ current: StateRecord?, count: PoolCount, now: Int64) -> Bool {
        let record = current ?? StateRecord(fields: [:], expiresAt: now)
        return SlidingCount(record, "n", window: pool.windowSeconds, now: now).value >= count.shardBudget(in: pool)
    }

    /// Undoes a ``sendDecision(_:seal:channel:delivers:admitsStepUp:now:)`` that said `.proceed` for `seal` when the
    /// message then could not go out (a pool budget was spent): the record to write, which no longer names the seal
    /// as a delivered live code and gives the user's send back; nil when the record no longer names it.
    public func sendWithdrawal(_ current: StateRecord?, seal: ChallengeSeal, now: Int64) -> StateRecord? {
        guard let record = current, record.liveSeal == seal else { return nil }
        var changed = record
        changed.fields["seal"] = nil
        changed.fields["delivered"] = .number(0)
        changed.fields["fresh"] = nil
        let sends = SlidingCount(record, "sends", window: sendWindowSeconds, now: now)
        sends.adding(sends.current > 0 ? -1 : 0, to: &changed)
        return changed
    }
}
