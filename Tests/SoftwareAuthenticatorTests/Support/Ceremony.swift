import COpenSSL
import ChallengeCrypto
import CognitoChallengeTesting
import LosslessJSON
import Testing

/// Options as a relying party would send them, and the parts of the responses the tests look at.
enum Ceremony {
    static let rpID = "localhost"
    static let origin = "http://localhost:5173"

    /// `PublicKeyCredentialCreationOptionsJSON`.
    static func creationOptions(
        challenge: [UInt8], algorithms: [Int] = [-8, -7, -257], exclude: [[UInt8]] = [], attestation: String = "none",
        userHandle: [UInt8] = [1, 2, 3, 4]
    ) -> String {
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rp": ["id": .string(rpID), "name": "Example"],
            "user": ["id": .string(Base64URL.encode(userHandle)), "name": "ada@example.com", "displayName": "Ada"],
            "pubKeyCredParams": .array(algorithms.map { ["type": "public-key", "alg": .number(JSONNumber($0))] }),
            "excludeCredentials": .array(exclude.map { ["type": "public-key", "id": .string(Base64URL.encode($0))] }),
            "authenticatorSelection": ["residentKey": "required", "userVerification": "required"],
            "attestation": .string(attestation),
            "timeout": 60000,
        ]
        return options.text()
    }

    /// `PublicKeyCredentialRequestOptionsJSON`.
    static func requestOptions(challenge: [UInt8], rpID: String = rpID, allow: [[UInt8]] = []) -> String {
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rpId": .string(rpID),
            "allowCredentials": .array(allow.map { ["type": "public-key", "id": .string(Base64URL.encode($0))] }),
            "userVerification": "required",
            "timeout": 60000,
        ]
        return options.text()
    }

    /// A response JSON's root object.
    static func object(_ json: String) throws -> JSONObject {
        try #require(try JSONValue(parsing: json).objectValue)
    }

    /// A base64url member of the response's `response` object, decoded.
    static func responseBytes(_ json: String, _ key: String) throws -> [UInt8] {
        let response = try #require(try object(json)["response"]?.objectValue)
        let text = try #require(response[key]?.stringValue)
        return try #require(Base64URL.decode(text))
    }

    /// The decoded attestation object of a registration response.
    static func attestationObject(_ json: String) throws -> CBOR {
        try #require(CBOR(decoding: try responseBytes(json, "attestationObject")))
    }
}

/// Signature checks made here with OpenSSL, independently of the module's signing code.
enum OpenSSLCheck {
    /// True when `signature` over `message` verifies with the DER `SubjectPublicKeyInfo` `publicKey`: SHA-256 for
    /// EC and RSA keys (DER ECDSA, PKCS #1 v1.5), the message itself for Ed25519.
    static func verifies(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        let key: OpaquePointer? = publicKey.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { return false }
        defer { EVP_PKEY_free(key) }
        return verifies(signature, of: message, key: key)
    }

    /// The same with the public key of a DER X.509 certificate.
    static func verifies(_ signature: [UInt8], of message: [UInt8], certificate: [UInt8]) -> Bool {
        let parsed: OpaquePointer? = certificate.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else { return false }
        defer { X509_free(parsed) }
        guard let key = X509_get_pubkey(parsed) else { return false }
        defer { EVP_PKEY_free(key) }
        return verifies(signature, of: message, key: key)
    }

    private static func verifies(_ signature: [UInt8], of message: [UInt8], key: OpaquePointer) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        let digest = EVP_PKEY_is_a(key, "ED25519") == 1 ? nil : EVP_sha256()
        guard EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1 else { return false }
        let verdict = EVP_DigestVerify(context, signature, signature.count, message, message.count)
        ERR_clear_error()
        return verdict == 1
    }
}
