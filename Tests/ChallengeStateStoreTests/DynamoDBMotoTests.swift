import ChallengeFlows
import CurlHTTP
import Foundation
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// ``DynamoDBStateStore`` details that only DynamoDB has, against moto on 127.0.0.1.
@Suite("DynamoDB state store against moto", .requires(.motoServer), .motoDynamoDB)
struct DynamoDBMotoTests {
    let now: Int64 = 1_750_000_000

    @Test func itemLayoutIsPrefixedFieldsBesideBookkeeping() throws {
        let moto = try MotoDynamoDB.running()
        let key = StoreKind.uniqueKey()
        let record = StateRecord(fields: ["sends": .number(2), "seal": .string("abc")], expiresAt: now + 60)
        #expect(try moto.store().write(key, record, expectedVersion: nil, now: now).succeeded)
        let answer = try moto.call("GetItem", ["TableName": .string(moto.table), "Key": ["pk": ["S": .string(key)]]])
        let expected: JSONValue = [
            "pk": ["S": .string(key)], "version": ["N": "1"], "expiresAt": ["N": .string(String(now + 60))],
            "f_sends": ["N": "2"], "f_seal": ["S": "abc"],
        ]
        #expect(answer.objectValue?["Item"] == expected)
    }

    @Test func itemThisStoreDidNotWriteIsMalformed() throws {
        let moto = try MotoDynamoDB.running()
        let key = StoreKind.uniqueKey()
        _ = try moto.call("PutItem", ["TableName": .string(moto.table), "Item": ["pk": ["S": .string(key)], "expiresAt": ["N": "1"]]])
        #expect {
            _ = try moto.store().read(key, now: 0)
        } throws: { error in
            guard case .malformedAnswer("GetItem", moto.table, _) = error as? StateStoreError else { return false }
            return "\(error)" == "DynamoDB's answer to \"GetItem\" on table \"\(moto.table)\" is malformed: the item has no "
                + "numeric \"version\" attribute."
        }
    }

    @Test func missingTableIsRejected() throws {
        let moto = try MotoDynamoDB.running()
        let store = try DynamoDBStateStore(configuration: moto.configuration(table: "no-such-table"))
        #expect {
            _ = try store.read("k", now: now)
        } throws: { error in
            guard case .rejected(let response) = error as? StateStoreError else { return false }
            return response.code == "ResourceNotFoundException" && response.table == "no-such-table"
        }
    }

    /// 200 read-then-write pairs on one key, as a sign-in's limit check does; prints the median pair.
    @Test func medianReadWritePair() throws {
        let store = try MotoDynamoDB.running().store()
        let key = StoreKind.uniqueKey()
        let clock = ContinuousClock()
        var pairs: [Duration] = []
        for _ in 0..<200 {
            let start = clock.now
            let current = try store.read(key, now: now)
            let sends = current.map { record -> Int64 in
                if case .number(let count)? = record.fields["sends"] { return count }
                return 0
            } ?? 0
            let written = try store.write(
                key, StateRecord(fields: ["sends": .number(sends + 1)], expiresAt: now + 600), expectedVersion: current?.version,
                now: now).succeeded
            pairs.append(clock.now - start)
            #expect(written)
        }
        pairs.sort()
        #expect(try store.read(key, now: now)?.version == 200)
        func milliseconds(_ duration: Duration) -> String {
            String(format: "%.2f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1e3)
        }
        print("DynamoDB state store against moto: GetItem+PutItem p50 \(milliseconds(pairs[99])), p90 \(milliseconds(pairs[179])) over 200 pairs")
    }
}
