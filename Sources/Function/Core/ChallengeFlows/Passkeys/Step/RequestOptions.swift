import ChallengeCrypto
import LosslessJSON

/// A `PublicKeyCredentialRequestOptionsJSON` (WebAuthn L3 §5.5), written as browsers take it.
struct RequestOptions: Equatable {
    /// One member of `allowCredentials`.
    struct AllowedCredential: Equatable {
        var id: [UInt8]
        var transports: [String]
    }

    /// Bytes in a challenge.
    static let challengeLength = 32

    /// The challenge, base64url.
    var challenge: String
    var timeoutMilliseconds: Int
    var rpID: String
    var allowCredentials: [AllowedCredential]

    /// `{"challenge", "timeout", "rpId", "allowCredentials": [{"type": "public-key", "id", "transports"}],
    /// "userVerification": "required"}`; `transports` is always present, so every entry has the same members.
    var json: String {
        let allowed = allowCredentials.map { credential in
            JSONValue.object(JSONObject([
                ("type", .string("public-key")),
                ("id", .string(Base64URL.encode(credential.id))),
                ("transports", .array(credential.transports.map(JSONValue.string))),
            ]))
        }
        return JSONValue.object(JSONObject([
            ("challenge", .string(challenge)),
            ("timeout", .number(JSONNumber(timeoutMilliseconds))),
            ("rpId", .string(rpID)),
            ("allowCredentials", .array(allowed)),
            ("userVerification", .string("required")),
        ])).text()
    }

    // MARK: Decoys

    /// Credential id lengths real passkeys have: 16 bytes (Google Password Manager), 20 (iCloud Keychain), 32
    /// (Windows Hello, many security keys).
    static let decoyIDLengths = [16, 20, 32]

    /// Transports as `getTransports()` reports them (sorted), roughly in the shares they have.
    static let decoyTransports: [(transports: [String], weight: Int)] = [
        (["hybrid", "internal"], 55), (["internal"], 20), (["nfc", "usb"], 10), (["hybrid"], 8), (["usb"], 7),
    ]

    /// One or two made-up credentials for a user without passkeys (or an unknown one), drawn from a keyed hash of the
    /// user name: the same for the same name every time, shaped like real ones.
    static func decoys(_ context: StepContext) -> [AllowedCredential] {
        let draw = context.decoyBytes(for: "passkey-allow-credentials", count: 10)
        func value(_ index: Int) -> Int { Int(draw[index]) << 8 | Int(draw[index + 1]) }
        // Cosmetic choices from 16-bit values: the bias of `%` reveals nothing.
        let count = value(0) % 10 < 7 ? 1 : 2
        return (0..<count).map { position in
            let length = decoyIDLengths[value(2 + 2 * position) % decoyIDLengths.count]
            let id = context.decoyBytes(for: "passkey-credential-id-\(position)", count: length)
            return AllowedCredential(id: id, transports: transports(forUnitValue: value(6 + 2 * position)))
        }
    }

    private static func transports(forUnitValue value: Int) -> [String] {
        let total = decoyTransports.reduce(0) { $0 + $1.weight }
        var point = value % total
        for (transports, weight) in decoyTransports {
            if point < weight { return transports }
            point -= weight
        }
        return decoyTransports[0].transports
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
