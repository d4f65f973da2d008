@testable import ChallengeFlows
import LosslessJSON
import Testing
@testable import WebAuthnCeremonies

@Suite struct StorageTests {
    static let credentials = [
        StoredCredential(
            id: [1, 2, 3], publicKey: [0xa5, 0x01], signCount: UInt32.max, transports: ["internal", "hybrid"],
            aaguid: Array(repeating: 0, count: 16), backupEligible: true, backedUp: true, name: "Phone \"é\"",
            createdAt: 1_750_000_000, lastUsedAt: 1_750_000_100),
        StoredCredential(
            id: [0xff], publicKey: [0xa0], signCount: 0, transports: [], aaguid: Array(0..<16), backupEligible: false,
            backedUp: false, name: "", createdAt: 0),
    ]

    @Test func roundTrips() throws {
        let json = StoredCredential.encodeList(Self.credentials)
        #expect(try StoredCredential.decodeList(json) == Self.credentials)
        #expect(try StoredCredential.decodeList(StoredCredential.encodeList([])) == [])
    }

    @Test func writesTheDocumentedMembers() throws {
        let value = try JSONValue(parsing: StoredCredential.encodeList(Self.credentials))
        let first = try #require(value.arrayValue?.first?.objectValue)
        #expect(first.keys == [
            "id", "publicKey", "signCount", "transports", "aaguid", "backupEligible", "backedUp", "name", "createdAt",
            "lastUsedAt",
        ])
        #expect(first["id"] == "AQID")
        #expect(first["signCount"] == .number(JSONNumber(4_294_967_295)))
        let second = try #require(value.arrayValue?.last?.objectValue)
        #expect(second["lastUsedAt"] == nil)
    }

    @Test func refusesWhatItDidNotWrite() {
        #expect(throws: WebAuthnError.malformed("stored credentials are not a JSON array")) { try StoredCredential.decodeList("{}") }
        #expect(throws: WebAuthnError.malformed("credentials[0].id is missing")) { try StoredCredential.decodeList("[{}]") }
        var text = StoredCredential.encodeList([Self.credentials[1]])
        text = text.replacing("\"signCount\":0", with: "\"signCount\":4294967296")
        #expect(throws: WebAuthnError.malformed("credentials[0].signCount is not an integer in 0...4294967295")) {
            try StoredCredential.decodeList(text)
        }
        #expect(throws: WebAuthnError.self) { try StoredCredential.decodeList("[") }
    }

    @Test func passkeyAccountFieldsRoundTrip() throws {
        let account = PasskeyAccount(handle: Array(repeating: 7, count: 32), credentials: Self.credentials)
        #expect(try PasskeyAccount(fields: account.fields) == account)
    }
}
