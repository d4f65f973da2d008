import ChallengeCrypto
import COpenSSL

/// A private key of a ``COSEAlgorithm``, owned by an ``OpenSSLKey``: what the software authenticator signs with and
/// how it writes the public half (COSE_Key, `SubjectPublicKeyInfo`).
struct KeyHandle: Sendable {
    let key: OpenSSLKey
    let algorithm: COSEAlgorithm

    /// A new random key: P-256 for ES256, Ed25519 for EdDSA, 2048-bit RSA with exponent 65537 for RS256.
    static func generate(_ algorithm: COSEAlgorithm) throws(SoftwareAuthenticatorError) -> KeyHandle {
        let key = try openSSL { () throws(CryptoError) in
            switch algorithm {
            case .es256:
                try OpenSSLKey.generate(type: "EC", configuring: "choose the P-256 curve") {
                    EVP_PKEY_CTX_set_group_name($0, "P-256") == 1
                }
            case .rs256:
                try OpenSSLKey.generate(type: "RSA", configuring: "choose a 2048-bit RSA modulus") {
                    EVP_PKEY_CTX_set_rsa_keygen_bits($0, 2048) == 1
                }
            case .edDSA:
                try OpenSSLKey.generate(type: "ED25519")
            }
        }
        return KeyHandle(key: key, algorithm: algorithm)
    }

    /// The key in DER (PKCS #8 `PrivateKeyInfo`, as ``pkcs8DER()`` writes), checked to be of `algorithm`'s type.
    static func load(pkcs8DER der: [UInt8], algorithm: COSEAlgorithm) throws(SoftwareAuthenticatorError) -> KeyHandle {
        let type =
            switch algorithm {
            case .es256: "EC"
            case .edDSA: "ED25519"
            case .rs256: "RSA"
            }
        return KeyHandle(key: try openSSL { () throws(CryptoError) in try OpenSSLKey.privateKey(der: der, type: type) },
                         algorithm: algorithm)
    }

    /// The private key as DER PKCS #8 `PrivateKeyInfo`, unencrypted.
    func pkcs8DER() throws(SoftwareAuthenticatorError) -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(key.pointer) else { throw .openSSL(operation: "convert a private key to PKCS #8") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return try DER.write("the PKCS #8 private key") { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// The public key as DER `SubjectPublicKeyInfo` (what browsers give as `response.publicKey`).
    func subjectPublicKeyInfoDER() throws(SoftwareAuthenticatorError) -> [UInt8] {
        try Self.openSSL { () throws(CryptoError) in try key.subjectPublicKeyInfoDER() }
    }

    /// The public key as a COSE_Key (RFC 9053): EC2 {1: 2, 3: -7, -1: 1, -2: x, -3: y}, OKP {1: 1, 3: -8, -1: 6,
    /// -2: x}, RSA {1: 3, 3: -257, -1: n, -2: e}.
    func coseKey() throws(SoftwareAuthenticatorError) -> CBOR {
        let alg = CBOR.integer(Int64(algorithm.rawValue))
        return try Self.openSSL { () throws(CryptoError) in
            switch algorithm {
            case .es256:
                CBOR.map([
                    (1, 2), (3, alg), (-1, 1),
                    (-2, .bytes(try key.bigNumber(OSSL_PKEY_PARAM_EC_PUB_X, width: 32))),
                    (-3, .bytes(try key.bigNumber(OSSL_PKEY_PARAM_EC_PUB_Y, width: 32))),
                ])
            case .edDSA:
                CBOR.map([(1, 1), (3, alg), (-1, 6), (-2, .bytes(try key.rawPublicKey()))])
            case .rs256:
                CBOR.map([
                    (1, 3), (3, alg),
                    (-1, .bytes(try key.bigNumber(OSSL_PKEY_PARAM_RSA_N))),
                    (-2, .bytes(try key.bigNumber(OSSL_PKEY_PARAM_RSA_E))),
                ])
            }
        }
    }

    /// The signature of `message`: DER ECDSA over SHA-256 (ES256), PKCS #1 v1.5 over SHA-256 (RS256), or Ed25519
    /// over the message itself (EdDSA).
    func sign(_ message: [UInt8]) throws(SoftwareAuthenticatorError) -> [UInt8] {
        try Self.openSSL { () throws(CryptoError) in
            try key.sign(message, digest: algorithm == .edDSA ? .none : .sha256)
        }
    }

    /// `body`'s result, with an OpenSSL failure as the authenticator's error.
    private static func openSSL<T>(_ body: () throws(CryptoError) -> T) throws(SoftwareAuthenticatorError) -> T {
        do {
            return try body()
        } catch {
            throw .openSSL(operation: error.operation)
        }
    }
}

/// OpenSSL's `i2d_…` calls, sized and then written.
enum DER {
    /// Runs `encode` once with no buffer for the length and once more into a buffer of that length.
    static func write(
        _ what: String, _ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    ) throws(SoftwareAuthenticatorError) -> [UInt8] {
        let length = encode(nil)
        guard length > 0 else { throw .openSSL(operation: "size \(what) in DER") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { throw .openSSL(operation: "write \(what) in DER") }
        return der
    }
}
