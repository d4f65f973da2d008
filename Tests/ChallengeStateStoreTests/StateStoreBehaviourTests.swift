import ChallengeFlows
import Foundation
import Platform
import ServiceClients
import Synchronization
import Testing

/// What every ``StateStore`` must do, checked on the memory store and on DynamoDB (moto on 127.0.0.1).
@Suite("State store behaviour", .motoDynamoDB)
struct StateStoreBehaviourTests {
    let now: Int64 = 1_750_000_000

    @Test(arguments: StoreKind.available)
    func absentKeyReadsNil(kind: StoreKind) throws {
        #expect(try kind.make().read(StoreKind.uniqueKey(), now: now) == nil)
    }

    @Test(arguments: StoreKind.available)
    func creatingSucceedsOnlyOnce(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        let record = StateRecord(fields: ["sends": .number(1)], expiresAt: now + 600)
        #expect(try store.write(key, record, expectedVersion: nil, now: now).succeeded)
        #expect(try !store.write(key, record, expectedVersion: nil, now: now).succeeded)
        #expect(try store.read(key, now: now) == StateRecord(fields: ["sends": .number(1)], version: 1, expiresAt: now + 600))
    }

    @Test(arguments: StoreKind.available)
    func versionsChainAndStaleWritesLose(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        for (expected, sends) in [(nil, 1), (1, 2), (2, 3)] as [(Int64?, Int64)] {
            #expect(try store.write(key, StateRecord(fields: ["sends": .number(sends)], expiresAt: now + 600), expectedVersion: expected, now: now).succeeded)
            #expect(try store.read(key, now: now)?.version == sends)
        }
        for stale in [1, 2, 4] as [Int64] {
            #expect(try !store.write(key, StateRecord(fields: ["sends": .number(99)], expiresAt: now + 600), expectedVersion: stale, now: now).succeeded)
        }
        #expect(try store.read(key, now: now) == StateRecord(fields: ["sends": .number(3)], version: 3, expiresAt: now + 600))
    }

    /// A lost write hands back the record that won, so the writer decides again without reading it; a write that
    /// expected a record that is gone hands back none.
    @Test(arguments: StoreKind.available)
    func lostWriteHandsBackTheWinner(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        let winner = StateRecord(fields: ["seal": .string("live"), "sends": .number(1)], expiresAt: now + 600)
        #expect(try store.write(key, winner, expectedVersion: nil, now: now) == .written(version: 1))
        let stored = StateRecord(fields: winner.fields, version: 1, expiresAt: now + 600)
        #expect(try store.write(key, StateRecord(fields: [:], expiresAt: now + 600), expectedVersion: nil, now: now) == .conflict(current: stored))
        #expect(try store.write(key, StateRecord(fields: [:], expiresAt: now + 600), expectedVersion: 5, now: now) == .conflict(current: stored))
        #expect(try store.write(StoreKind.uniqueKey(), winner, expectedVersion: 2, now: now) == .conflict(current: nil))
        #expect(try store.write(key, winner, expectedVersion: 1, now: now) == .written(version: 2))
    }

    @Test(arguments: StoreKind.available)
    func expiredRecordIsAbsent(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        #expect(try store.write(key, StateRecord(fields: ["failures": .number(4)], expiresAt: now + 10), expectedVersion: nil, now: now).succeeded)
        #expect(try store.read(key, now: now + 9)?.version == 1)
        #expect(try store.read(key, now: now + 10) == nil)
        // Its old version no longer counts; a write that expects no record replaces it, starting again at 1.
        #expect(try !store.write(key, StateRecord(fields: [:], expiresAt: now + 700), expectedVersion: 1, now: now + 10).succeeded)
        #expect(try store.write(key, StateRecord(fields: ["failures": .number(1)], expiresAt: now + 700), expectedVersion: nil, now: now + 10).succeeded)
        #expect(try store.read(key, now: now + 10) == StateRecord(fields: ["failures": .number(1)], version: 1, expiresAt: now + 700))
    }

    @Test(arguments: StoreKind.available)
    func fieldsOfBothTypesRoundTrip(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        let fields: [String: StateValue] = [
            "smallest": .number(.min), "largest": .number(.max), "zero": .number(0),
            "seal": .string("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
            "quoted \"name\"": .string("line\nbreak, tab\t, \\ and ünïcødé 🔐"), "empty": .string(""),
            "version": .string("a field may share a name with a bookkeeping attribute"),
        ]
        #expect(try store.write(key, StateRecord(fields: fields, expiresAt: now + 60), expectedVersion: nil, now: now).succeeded)
        #expect(try store.read(key, now: now) == StateRecord(fields: fields, version: 1, expiresAt: now + 60))
    }

    /// 8 threads each add 1 to one counter 20 times, by read-modify-write, retrying every lost compare-and-swap:
    /// no increment may be lost or counted twice.
    @Test(arguments: StoreKind.available)
    func racingIncrementsLoseNothing(kind: StoreKind) throws {
        let store = try kind.make()
        let key = StoreKind.uniqueKey()
        let (threads, increments) = (8, 20)
        let now = now
        let tally = PosixLock((successes: 0, conflicts: 0, errors: [String]()))
        let ready = Atomic(0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                defer { finished.leave() }
                // Start together, so that the threads overlap even on the memory store's microsecond calls.
                ready.add(1, ordering: .relaxed)
                while ready.load(ordering: .relaxed) < threads { sched_yield() }
                do {
                    for _ in 0..<increments {
                        while true {
                            let current = try store.read(key, now: now)
                            var record = current ?? StateRecord(fields: ["count": .number(0)], expiresAt: now + 600)
                            guard case .number(let count)? = record.fields["count"] else { throw CounterMissing() }
                            record.fields["count"] = .number(count + 1)
                            sched_yield()  // gives another thread the chance to write in between
                            if try store.write(key, record, expectedVersion: current?.version, now: now).succeeded {
                                tally.withLock { $0.successes += 1 }
                                break
                            }
                            tally.withLock { $0.conflicts += 1 }
                        }
                    }
                } catch {
                    tally.withLock { $0.errors.append("\(error)") }
                }
            }.start()
        }
        finished.wait()
        let (successes, conflicts, errors) = tally.withLock { $0 }
        #expect(errors.isEmpty)
        #expect(successes == threads * increments)
        let final = try #require(try store.read(key, now: now))
        #expect(final.fields["count"] == .number(Int64(threads * increments)))
        #expect(final.version == Int64(threads * increments))
        print("\(kind): \(successes) increments by \(threads) threads, \(conflicts) lost compare-and-swaps retried")
    }

    struct CounterMissing: Error {}
}
