import ChallengeCrypto
import LocalUserPool
import LosslessJSON
import Testing

@Suite struct JWTTests {
    static let claims = JSONObject([("sub", "user-1"), ("exp", 2_000_000_000), ("name", "Zoë")] as [(String, JSONValue)])

    @Test func roundTripsTheClaimsInTheirOrder() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.first)
        let verified = try JWT.verify(token, key: TestKeys.first, now: 1_999_999_999)
        #expect(verified == Self.claims)
        #expect(verified.keys == ["sub", "exp", "name"])
    }

    @Test func headerNamesTheKeyAndRS256InCognitosOrder() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.first)
        let header = try #require(token.split(separator: ".").first.flatMap { Base64URL.decode($0) })
        #expect(String(decoding: header, as: UTF8.self) == "{\"kid\":\"\(TestKeys.first.keyID)\",\"alg\":\"RS256\"}")
    }

    @Test func rejectsATamperedPayload() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.first)
        let parts = token.split(separator: ".")
        var forged = Self.claims
        forged["sub"] = "admin"
        let tampered = "\(parts[0]).\(Base64URL.encode(JSONValue.object(forged).serialized())).\(parts[2])"
        #expect(throws: TokenError.invalidSignature) { try JWT.verify(tampered, key: TestKeys.first, now: 0) }
    }

    @Test func rejectsATamperedSignature() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.first)
        let parts = token.split(separator: ".")
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[100] ^= 0x01
        let tampered = "\(parts[0]).\(parts[1]).\(Base64URL.encode(signature))"
        #expect(throws: TokenError.invalidSignature) { try JWT.verify(tampered, key: TestKeys.first, now: 0) }
    }

    @Test func rejectsAnotherKeysToken() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.second)
        #expect(throws: TokenError.unknownKeyID(TestKeys.second.keyID)) {
            try JWT.verify(token, key: TestKeys.first, now: 0)
        }
    }

    @Test func rejectsAnotherKeysSignatureUnderThisKeysID() throws {
        // Signed by the second key, relabelled with the first key's ID.
        let header = Base64URL.encode((["kid": .string(TestKeys.first.keyID), "alg": "RS256"] as JSONValue).serialized())
        let payload = Base64URL.encode(JSONValue.object(Self.claims).serialized())
        let signature = try TestKeys.second.sign(Array("\(header).\(payload)".utf8))
        let token = "\(header).\(payload).\(Base64URL.encode(signature))"
        #expect(throws: TokenError.invalidSignature) { try JWT.verify(token, key: TestKeys.first, now: 0) }
    }

    @Test func expiresAtExp() throws {
        let token = try JWT.encode(claims: Self.claims, key: TestKeys.first)
        #expect(throws: Never.self) { try JWT.verify(token, key: TestKeys.first, now: 1_999_999_999) }
        #expect(throws: TokenError.expired(expiry: 2_000_000_000, now: 2_000_000_000)) {
            try JWT.verify(token, key: TestKeys.first, now: 2_000_000_000)
        }
    }

    @Test func requiresAnIntegerExp() throws {
        for exp: JSONValue? in [nil, "2000000000", try JSONValue(parsing: "2e9")] {
            var claims = Self.claims
            claims["exp"] = exp
            let token = try JWT.encode(claims: claims, key: TestKeys.first)
            #expect(throws: TokenError.missingExpiry) { try JWT.verify(token, key: TestKeys.first, now: 0) }
        }
    }

    @Test func rejectsUnsignedAndHMACTokens() throws {
        let payload = Base64URL.encode(JSONValue.object(Self.claims).serialized())
        for algorithm in ["none", "HS256"] {
            let header = Base64URL.encode((["alg": .string(algorithm)] as JSONValue).serialized())
            #expect(throws: TokenError.unsupportedAlgorithm(algorithm)) {
                try JWT.verify("\(header).\(payload).", key: TestKeys.first, now: 0)
            }
        }
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", "!!.e30.AA", "W10.e30.AA", "e30.e30.AA", "eyJhbGciOiJSUzI1NiJ9.e30.!!"])
    func rejectsMalformedTokens(token: String) {
        #expect {
            try JWT.verify(token, key: TestKeys.first, now: 0)
        } throws: { error in
            guard case .malformed = error as? TokenError else { return false }
            return true
        }
    }

    @Test func errorMessagesAreSentencesThatQuoteTheValue() {
        #expect(TokenError.unsupportedAlgorithm("none").description == "The token's algorithm \"none\" is not \"RS256\".")
        #expect(TokenError.malformed(reason: "it has 2 dot-separated parts, not 3").description
            == "The token is malformed: it has 2 dot-separated parts, not 3.")
        #expect(TokenError.expired(expiry: 10, now: 12).description
            == "The token expired at 10, and it is now 12 (Unix seconds).")
    }
}
