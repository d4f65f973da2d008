import ChallengeCrypto
import COpenSSL
import LosslessJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An RSA private key that signs tokens with RS256, as a Cognito user pool's signing key does, and publishes its
/// public half as a JWK.
public struct TokenSigningKey: Sendable {
    /// The shortest modulus accepted, in bits (RFC 7518 section 3.3 requires at least 2048 for RS256).
    public static let minimumBits = 2048

    private let key: OpenSSLKey

    /// The key ID (`kid`): base64url of the first 16 bytes of the SHA-256 of the DER `SubjectPublicKeyInfo`, so the
    /// same key always has the same ID.
    public let keyID: String

    /// The public key as a JWK: `alg` RS256, `e`, `kid`, `kty` RSA, `n`, `use` sig, in the order Cognito's JWKS
    /// lists them; `n` and `e` are unsigned big-endian base64url.
    public let jwk: JSONValue

    private init(key: OpenSSLKey, source: String) throws(SigningKeyError) {
        guard key.isA("RSA") else {
            let type = EVP_PKEY_get0_type_name(key.pointer).map { String(cString: $0) } ?? "unknown"
            throw .notRSA(source: source, type: type)
        }
        guard key.bits >= Self.minimumBits else { throw .tooShort(bits: key.bits) }
        self.key = key
        do {
            keyID = Base64URL.encode(SHA256.hash(try key.subjectPublicKeyInfoDER()).prefix(16))
            jwk = [
                "alg": "RS256",
                "e": .string(Base64URL.encode(try key.bigNumber(OSSL_PKEY_PARAM_RSA_E))),
                "kid": .string(keyID),
                "kty": "RSA",
                "n": .string(Base64URL.encode(try key.bigNumber(OSSL_PKEY_PARAM_RSA_N))),
                "use": "sig",
            ]
        } catch {
            throw .openSSL(operation: error.operation)
        }
    }

    /// A new random key of `bits` bits with public exponent 65537.
    public static func generate(bits: Int = 2048) throws(SigningKeyError) -> TokenSigningKey {
        guard bits >= minimumBits else { throw .tooShort(bits: bits) }
        let key: OpenSSLKey
        do {
            key = try OpenSSLKey.generate(type: "RSA", configuring: "choose a \(bits)-bit RSA modulus") {
                EVP_PKEY_CTX_set_rsa_keygen_bits($0, Int32(bits)) == 1
            }
        } catch {
            throw .openSSL(operation: error.operation)
        }
        return try TokenSigningKey(key: key, source: "a generated key")
    }

    /// The RSA private key in a PEM file: PKCS #8 (`BEGIN PRIVATE KEY`, as ``pkcs8PEM()`` writes) or PKCS #1
    /// (`BEGIN RSA PRIVATE KEY`). Encrypted keys are refused rather than prompting for a passphrase.
    public init(pemFile path: String) throws(SigningKeyError) {
        guard let bio = BIO_new_file(path, "r") else {
            let reason = String(cString: strerror(errno))
            ERR_clear_error()
            throw .unreadableFile(path: path, reason: reason)
        }
        defer { BIO_free(bio) }
        try self.init(key: Self.readPrivateKey(from: bio, source: path), source: path)
    }

    /// The RSA private key in PEM text; see ``init(pemFile:)``.
    public init(pem: String) throws(SigningKeyError) {
        let source = "the PEM text"
        let bytes = Array(pem.utf8)
        let key = bytes.withUnsafeBytes { buffer in
            Result { () throws(SigningKeyError) in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                    throw .openSSL(operation: "wrap the PEM text in a memory BIO")
                }
                defer { BIO_free(bio) }
                return try Self.readPrivateKey(from: bio, source: source)
            }
        }
        try self.init(key: key.get(), source: source)
    }

    private static func readPrivateKey(
        from bio: OpaquePointer, source: String
    ) throws(SigningKeyError) -> OpenSSLKey {
        // A passphrase callback that supplies none: OpenSSL's default would prompt on the terminal.
        guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            throw .notAPrivateKey(source: source)
        }
        return OpenSSLKey(taking: key)
    }

    /// The private key as unencrypted PKCS #8 PEM, which ``init(pem:)`` and ``init(pemFile:)`` read back.
    public func pkcs8PEM() throws(SigningKeyError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL(operation: "allocate a memory BIO") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else {
            throw .openSSL(operation: "write the private key as PKCS #8 PEM")
        }
        var text = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        guard BIO_read(bio, &text, Int32(text.count)) == text.count else {
            throw .openSSL(operation: "read the PEM text back")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The RSASSA-PKCS1-v1_5 SHA-256 signature (JWS `RS256`) of `signingInput`.
    public func sign(_ signingInput: [UInt8]) throws(SigningKeyError) -> [UInt8] {
        do {
            return try key.sign(signingInput, digest: .sha256)
        } catch {
            throw .openSSL(operation: "\(error.operation) (RS256)")
        }
    }

    /// True when `signature` is this key's RS256 signature of `signingInput`.
    public func isValidSignature(_ signature: [UInt8], of signingInput: [UInt8]) -> Bool {
        key.verify(signature, of: signingInput, digest: .sha256)
    }
}
