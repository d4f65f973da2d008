import ChallengeCrypto
import LocalUserPool
import LosslessJSON
import Platform
import Testing

@Suite struct CognitoTokenIssuerTests {
    static let issuer = CognitoTokenIssuer(
        issuer: "http://127.0.0.1:9229/us-east-1_Local", clientID: "local-client", key: TestKeys.first)
    static let now: Int64 = 1_750_000_000
    static let authTime: Int64 = 1_749_999_990

    static func issue(attributes: [String: String] = [:]) throws -> IssuedTokens {
        try issuer.issue(subject: "0c5f-sub", userName: "alice", attributes: attributes, authTime: authTime, now: now)
    }

    static func claims(_ token: String) throws -> JSONObject {
        try JWT.verify(token, key: TestKeys.first, now: now)
    }

    @Test func idTokenHasCognitosClaimsTypedAsCognitoTypesThem() throws {
        let tokens = try Self.issue(attributes: ["email": "alice@example.com", "email_verified": "true"])
        let claims = try Self.claims(tokens.idToken)
        #expect(claims.keys == [
            "sub", "iss", "cognito:username", "origin_jti", "aud", "event_id", "token_use", "auth_time", "exp", "iat",
            "jti", "email", "email_verified",
        ])
        #expect(claims["sub"] == "0c5f-sub")
        #expect(claims["iss"] == "http://127.0.0.1:9229/us-east-1_Local")
        #expect(claims["cognito:username"] == "alice")
        #expect(claims["aud"] == "local-client")
        #expect(claims["token_use"] == "id")
        #expect(claims["auth_time"] == .number(JSONNumber(1_749_999_990)))
        #expect(claims["iat"] == .number(JSONNumber(1_750_000_000)))
        #expect(claims["exp"] == .number(JSONNumber(1_750_003_600)))
        #expect(claims["email"] == "alice@example.com")
        #expect(claims["email_verified"] == true)
        for name in ["origin_jti", "event_id", "jti"] {
            #expect(claims[name]?.stringValue.map(isUUIDv4) == true, "\(name)")
        }
    }

    @Test func accessTokenHasCognitosClaims() throws {
        let claims = try Self.claims(try Self.issue(attributes: ["email": "alice@example.com"]).accessToken)
        #expect(claims.keys == [
            "sub", "iss", "client_id", "origin_jti", "event_id", "token_use", "scope", "auth_time", "exp", "iat", "jti",
            "username",
        ])
        #expect(claims["client_id"] == "local-client")
        #expect(claims["token_use"] == "access")
        #expect(claims["scope"] == "aws.cognito.signin.user.admin")
        #expect(claims["username"] == "alice")
        #expect(claims["exp"] == .number(JSONNumber(1_750_003_600)))
        #expect(claims["email"] == nil)
    }

    @Test func bothTokensShareTheEventAndOriginButNotTheirJTI() throws {
        let tokens = try Self.issue()
        let id = try Self.claims(tokens.idToken), access = try Self.claims(tokens.accessToken)
        #expect(id["event_id"] == access["event_id"])
        #expect(id["origin_jti"] == access["origin_jti"])
        #expect(id["jti"] != access["jti"])
        let again = try Self.claims(try Self.issue().idToken)
        #expect(again["event_id"] != id["event_id"])
    }

    @Test func attributesBecomeClaimsExceptThoseCognitoSets() throws {
        let claims = try Self.claims(try Self.issue(attributes: [
            "sub": "forged", "iss": "forged", "phone_number": "+15555550100", "phone_number_verified": "false",
            "custom:team": "blue", "email_verified": "yes",
        ]).idToken)
        #expect(claims["sub"] == "0c5f-sub")
        #expect(claims["iss"] == "http://127.0.0.1:9229/us-east-1_Local")
        #expect(claims["phone_number"] == "+15555550100")
        #expect(claims["phone_number_verified"] == false)
        #expect(claims["custom:team"] == "blue")
        #expect(claims["email_verified"] == "yes")  // not a boolean word: kept as the string it is
    }

    @Test func refreshTokenIsThirtyTwoRandomBytesAndTheResultIsCognitos() throws {
        let tokens = try Self.issue()
        #expect(Base64URL.decode(tokens.refreshToken)?.count == 32)
        #expect(try Self.issue().refreshToken != tokens.refreshToken)
        #expect(tokens.expiresIn == 3600)
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.authenticationResult == [
            "AccessToken": .string(tokens.accessToken), "ExpiresIn": 3600, "IdToken": .string(tokens.idToken),
            "RefreshToken": .string(tokens.refreshToken), "TokenType": "Bearer",
        ])
    }

    @Test func identifiersComeFromTheRandomSource() throws {
        let issuer = CognitoTokenIssuer(issuer: "i", clientID: "c", key: TestKeys.first, random: CountingRandom())
        let tokens = try issuer.issue(subject: "s", userName: "u", attributes: [:], authTime: Self.now, now: Self.now)
        let claims = try Self.claims(tokens.idToken)
        // The first 16 bytes (0x00...0x0f) with the version and variant bits set.
        #expect(claims["event_id"] == "00010203-0405-4607-8809-0a0b0c0d0e0f")
        #expect(claims["origin_jti"] == "10111213-1415-4617-9819-1a1b1c1d1e1f")
    }

    /// True for lower-case 8-4-4-4-12 hexadecimal with version 4 and variant 10.
    private func isUUIDv4(_ text: String) -> Bool {
        let characters = Array(text)
        guard characters.count == 36 else { return false }
        for (index, character) in characters.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard character == "-" else { return false }
            } else {
                guard character.isHexDigit, !character.isUppercase else { return false }
            }
        }
        return characters[14] == "4" && "89ab".contains(characters[19])
    }
}

/// Bytes 0, 1, 2, … in order.
private final class CountingRandom: RandomSource {
    private let next = PosixLock<UInt8>(0)

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        next.withLock { next in
            for index in buffer.indices {
                buffer[index] = next
                next &+= 1
            }
        }
    }
}
