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

    private let handle: RSAKeyHandle

    /// The key ID (`kid`): base64url of the first 16 bytes of the SHA-256 of the DER `SubjectPublicKeyInfo`, so the
    /// same key always has the same ID.
    public let keyID: String

    /// The public key as a JWK: `alg` RS256, `e`, `kid`, `kty` RSA, `n`, `use` sig, in the order Cognito's JWKS
    /// lists them; `n` and `e` are unsigned big-endian base64url.
    public let jwk: JSONValue

    private init(handle: RSAKeyHandle, source: String) throws(SigningKeyError) {
        guard EVP_PKEY_is_a(handle.key, "RSA") == 1 else {
            let type = EVP_PKEY_get0_type_name(handle.key).map { String(cString: $0) } ?? "unknown"
            throw .notRSA(source: source, type: type)
        }
        guard handle.bits >= Self.minimumBits else { throw .tooShort(bits: handle.bits) }
        self.handle = handle
        keyID = Base64URL.encode(SHA256.hash(try handle.publicKeyDER()).prefix(16))
        jwk = [
            "alg": "RS256",
            "e": .string(Base64URL.encode(try handle.parameter(OSSL_PKEY_PARAM_RSA_E))),
            "kid": .string(keyID),
            "kty": "RSA",
            "n": .string(Base64URL.encode(try handle.parameter(OSSL_PKEY_PARAM_RSA_N))),
            "use": "sig",
        ]
    }

    /// A new random key of `bits` bits with public exponent 65537.
    public static func generate(bits: Int = 2048) throws(SigningKeyError) -> TokenSigningKey {
        guard bits >= minimumBits else { throw .tooShort(bits: bits) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "RSA", nil) else {
            throw .openSSL(operation: "make an RSA key-generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
            throw .openSSL(operation: "set up a \(bits)-bit RSA key generation")
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw .openSSL(operation: "generate a \(bits)-bit RSA key")
        }
        return try TokenSigningKey(handle: RSAKeyHandle(taking: key), source: "a generated key")
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
        try self.init(handle: Self.readPrivateKey(from: bio, source: path), source: path)
    }

    /// The RSA private key in PEM text; see ``init(pemFile:)``.
    public init(pem: String) throws(SigningKeyError) {
        let source = "the PEM text"
        let bytes = Array(pem.utf8)
        let handle = bytes.withUnsafeBytes { buffer in
            Result { () throws(SigningKeyError) in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                    throw .openSSL(operation: "wrap the PEM text in a memory BIO")
                }
                defer { BIO_free(bio) }
                return try Self.readPrivateKey(from: bio, source: source)
            }
        }
        try self.init(handle: handle.get(), source: source)
    }

    private static func readPrivateKey(
        from bio: OpaquePointer, source: String
    ) throws(SigningKeyError) -> RSAKeyHandle {
        // A passphrase callback that supplies none: OpenSSL's default would prompt on the terminal.
        guard let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) else {
            ERR_clear_error()
            throw .notAPrivateKey(source: source)
        }
        return RSAKeyHandle(taking: key)
    }

    /// The private key as unencrypted PKCS #8 PEM, which ``init(pem:)`` and ``init(pemFile:)`` read back.
    public func pkcs8PEM() throws(SigningKeyError) -> String {
        try handle.pkcs8PEM()
    }

    /// The RSASSA-PKCS1-v1_5 SHA-256 signature (JWS `RS256`) of `signingInput`.
    public func sign(_ signingInput: [UInt8]) throws(SigningKeyError) -> [UInt8] {
        try handle.signSHA256(signingInput)
    }

    /// True when `signature` is this key's RS256 signature of `signingInput`.
    public func isValidSignature(_ signature: [UInt8], of signingInput: [UInt8]) -> Bool {
        handle.verifySHA256(signature, of: signingInput)
    }
}
