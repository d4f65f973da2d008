import ChallengeCrypto
import LosslessJSON

/// A `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.5), written as browsers take it.
struct RequestOptions: Equatable {
    /// Bytes in a challenge.
    static let challengeLength = 32

    /// The challenge, base64url.
    var challenge: String
    var timeoutMilliseconds: Int
    var rpID: String

    /// `{"challenge", "timeout", "rpId", "allowCredentials": [], "userVerification": "required"}`: no credential is
    /// named, so nothing in the options depends on the user.
    var json: String {
        JSONValue.object(JSONObject([
            ("challenge", .string(challenge)),
            ("timeout", .number(JSONNumber(timeoutMilliseconds))),
            ("rpId", .string(rpID)),
            ("allowCredentials", .array([])),
            ("userVerification", .string("required")),
        ])).text()
    }

    // MARK: The answer

    /// The challenge an `AuthenticationResponseJSON` signed (`response.clientDataJSON`'s `challenge`), decoded; nil
    /// when the answer is not such a response or the challenge is not one this step issues.
    static func challenge(inResponse answer: String) -> [UInt8]? {
        guard let response = (try? JSONValue(parsing: answer))?.objectValue?["response"]?.objectValue,
              let clientDataText = response["clientDataJSON"]?.stringValue,
              let clientData = Base64URL.decode(clientDataText),
              let challengeText = (try? JSONValue(parsing: clientData))?.objectValue?["challenge"]?.stringValue,
              let challenge = Base64URL.decode(challengeText), challenge.count == challengeLength
        else { return nil }
        return challenge
    }
}
