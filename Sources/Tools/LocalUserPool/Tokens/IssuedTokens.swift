import LosslessJSON

/// The tokens of one sign-in, as Cognito's `AuthenticationResult` carries them.
public struct IssuedTokens: Sendable, Equatable {
    /// The ID token: a JWT with the user's identity and attributes, for the application.
    public let idToken: String
    /// The access token: a JWT for Cognito's user APIs (`GetUser`), scope `aws.cognito.signin.user.admin`.
    public let accessToken: String
    /// An opaque random token for the refresh flow.
    public let refreshToken: String
    /// Seconds until the ID and access tokens expire.
    public let expiresIn: Int
    /// Always `Bearer`.
    public let tokenType: String

    /// The `AuthenticationResult` object of Cognito's `InitiateAuth` and `RespondToAuthChallenge` answers.
    public var authenticationResult: JSONValue {
        [
            "AccessToken": .string(accessToken),
            "ExpiresIn": .number(JSONNumber(expiresIn)),
            "IdToken": .string(idToken),
            "RefreshToken": .string(refreshToken),
            "TokenType": .string(tokenType),
        ]
    }
}
