import ChallengeCrypto
import LosslessJSON
import Platform

/// Issues ID, access and refresh tokens with the claims Amazon Cognito puts in them, for one app client of a local
/// user pool.
public struct CognitoTokenIssuer: Sendable {
    /// How long ID and access tokens last: Cognito's default of one hour.
    public static let lifetimeSeconds = 3600
    /// The access token's `scope` for tokens from `InitiateAuth`/`RespondToAuthChallenge`.
    public static let userAdminScope = "aws.cognito.signin.user.admin"
    /// Random bytes in a refresh token.
    public static let refreshTokenByteCount = 32

    /// The `iss` claim: the pool's URL, such as `http://127.0.0.1:9229/us-east-1_Local`.
    public let issuer: String
    /// The app client ID: the ID token's `aud` and the access token's `client_id`.
    public let clientID: String
    /// The pool's signing key.
    public let key: TokenSigningKey
    private let random: any RandomSource

    public init(issuer: String, clientID: String, key: TokenSigningKey, random: any RandomSource = SystemRandom()) {
        self.issuer = issuer
        self.clientID = clientID
        self.key = key
        self.random = random
    }

    /// The tokens for a user who signed in at `authTime`, issued at `now` (both Unix seconds).
    ///
    /// The ID token carries every attribute in `attributes` except those named like a claim Cognito sets itself
    /// (`sub`, `iss`, …); `email_verified` and `phone_number_verified` become JSON booleans, as in Cognito.
    /// Both tokens share `event_id` and `origin_jti` and have their own `jti`.
    /// - Throws: the random source's error, or ``SigningKeyError`` when OpenSSL cannot sign.
    public func issue(
        subject: String, userName: String, attributes: [String: String], authTime: Int64, now: Int64
    ) throws -> IssuedTokens {
        let eventID = try random.uuidV4()
        let originJTI = try random.uuidV4()
        let expiry = now + Int64(Self.lifetimeSeconds)

        var idClaims = JSONObject([
            ("sub", .string(subject)),
            ("iss", .string(issuer)),
            ("cognito:username", .string(userName)),
            ("origin_jti", .string(originJTI)),
            ("aud", .string(clientID)),
            ("event_id", .string(eventID)),
            ("token_use", .string("id")),
            ("auth_time", .integer(authTime)),
            ("exp", .integer(expiry)),
            ("iat", .integer(now)),
            ("jti", .string(try random.uuidV4())),
        ])
        for (name, value) in attributes.sorted(by: { $0.key < $1.key }) where idClaims[name] == nil {
            idClaims[name] = Self.claim(attribute: name, value: value)
        }

        let accessClaims = JSONObject([
            ("sub", .string(subject)),
            ("iss", .string(issuer)),
            ("client_id", .string(clientID)),
            ("origin_jti", .string(originJTI)),
            ("event_id", .string(eventID)),
            ("token_use", .string("access")),
            ("scope", .string(Self.userAdminScope)),
            ("auth_time", .integer(authTime)),
            ("exp", .integer(expiry)),
            ("iat", .integer(now)),
            ("jti", .string(try random.uuidV4())),
            ("username", .string(userName)),
        ])

        return IssuedTokens(
            idToken: try JWT.encode(claims: idClaims, key: key),
            accessToken: try JWT.encode(claims: accessClaims, key: key),
            refreshToken: Base64URL.encode(try random.bytes(count: Self.refreshTokenByteCount)),
            expiresIn: Self.lifetimeSeconds,
            tokenType: "Bearer"
        )
    }

    /// An attribute as an ID-token claim: the `*_verified` flags as booleans, everything else as a string.
    private static func claim(attribute name: String, value: String) -> JSONValue {
        switch (name, value) {
        case ("email_verified", "true"), ("phone_number_verified", "true"): true
        case ("email_verified", "false"), ("phone_number_verified", "false"): false
        default: .string(value)
        }
    }
}

extension JSONValue {
    /// A JSON integer.
    fileprivate static func integer(_ value: Int64) -> JSONValue {
        .number(JSONNumber(Int(value)))
    }
}
