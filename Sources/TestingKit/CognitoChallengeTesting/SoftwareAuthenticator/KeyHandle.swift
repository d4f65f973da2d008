import COpenSSL

/// Owns one OpenSSL private key (`EVP_PKEY`) of a ``COSEAlgorithm`` and frees it with the last reference.
///
/// `@unchecked Sendable`: the key is never changed after it is made, OpenSSL 3 allows concurrent reads of an
/// `EVP_PKEY`, and every signature runs in its own `EVP_MD_CTX`.
final class KeyHandle: @unchecked Sendable {
    let key: OpaquePointer
    let algorithm: COSEAlgorithm

    private init(taking key: OpaquePointer, algorithm: COSEAlgorithm) {
        self.key = key
        self.algorithm = algorithm
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// A new random key: P-256 for ES256, Ed25519 for EdDSA, 2048-bit RSA with exponent 65537 for RS256.
    static func generate(_ algorithm: COSEAlgorithm) throws(SoftwareAuthenticatorError) -> KeyHandle {
        let typeName =
            switch algorithm {
            case .es256: "EC"
            case .edDSA: "ED25519"
            case .rs256: "RSA"
            }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, typeName, nil) else {
            throw .openSSL(operation: "make a \(typeName) key-generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else {
            throw .openSSL(operation: "start a \(typeName) key generation")
        }
        switch algorithm {
        case .es256:
            guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else {
                throw .openSSL(operation: "choose the P-256 curve")
            }
        case .rs256:
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else {
                throw .openSSL(operation: "choose a 2048-bit RSA modulus")
            }
        case .edDSA:
            break
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw .openSSL(operation: "generate a \(algorithm) key")
        }
        return KeyHandle(taking: key, algorithm: algorithm)
    }

    /// The key in DER (PKCS #8 `PrivateKeyInfo`, as ``pkcs8DER()`` writes), checked to be of `algorithm`'s type.
    static func load(pkcs8DER der: [UInt8], algorithm: COSEAlgorithm) throws(SoftwareAuthenticatorError) -> KeyHandle {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .openSSL(operation: "read a DER private key")
        }
        let handle = KeyHandle(taking: parsed, algorithm: algorithm)
        let expected =
            switch algorithm {
            case .es256: "EC"
            case .edDSA: "ED25519"
            case .rs256: "RSA"
            }
        guard EVP_PKEY_is_a(parsed, expected) == 1 else {
            throw .openSSL(operation: "read a \(algorithm) key: the DER key is not \(expected)")
        }
        return handle
    }

    /// The private key as DER PKCS #8 `PrivateKeyInfo`, unencrypted.
    func pkcs8DER() throws(SoftwareAuthenticatorError) -> [UInt8] {
        guard let info = EVP_PKEY2PKCS8(key) else { throw .openSSL(operation: "convert a private key to PKCS #8") }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        return try DER.write("the PKCS #8 private key") { i2d_PKCS8_PRIV_KEY_INFO(info, $0) }
    }

    /// The public key as DER `SubjectPublicKeyInfo` (what browsers give as `response.publicKey`).
    func subjectPublicKeyInfoDER() throws(SoftwareAuthenticatorError) -> [UInt8] {
        try DER.write("the public key") { i2d_PUBKEY(key, $0) }
    }

    /// The public key as a COSE_Key (RFC 9053): EC2 {1: 2, 3: -7, -1: 1, -2: x, -3: y}, OKP {1: 1, 3: -8, -1: 6,
    /// -2: x}, RSA {1: 3, 3: -257, -1: n, -2: e}.
    func coseKey() throws(SoftwareAuthenticatorError) -> CBOR {
        switch algorithm {
        case .es256:
            return .map([
                (1, 2), (3, .integer(Int64(algorithm.rawValue))), (-1, 1),
                (-2, .bytes(try parameter(OSSL_PKEY_PARAM_EC_PUB_X, width: 32))),
                (-3, .bytes(try parameter(OSSL_PKEY_PARAM_EC_PUB_Y, width: 32))),
            ])
        case .edDSA:
            var length = 0
            guard EVP_PKEY_get_raw_public_key(key, nil, &length) == 1 else {
                throw .openSSL(operation: "size the Ed25519 public key")
            }
            var raw = [UInt8](repeating: 0, count: length)
            guard EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1 else {
                throw .openSSL(operation: "read the Ed25519 public key")
            }
            return .map([(1, 1), (3, .integer(Int64(algorithm.rawValue))), (-1, 6), (-2, .bytes(raw))])
        case .rs256:
            return .map([
                (1, 3), (3, .integer(Int64(algorithm.rawValue))),
                (-1, .bytes(try parameter(OSSL_PKEY_PARAM_RSA_N, width: 0))),
                (-2, .bytes(try parameter(OSSL_PKEY_PARAM_RSA_E, width: 0))),
            ])
        }
    }

    /// The signature of `message`: DER ECDSA over SHA-256 (ES256), PKCS #1 v1.5 over SHA-256 (RS256), or Ed25519
    /// over the message itself (EdDSA).
    func sign(_ message: [UInt8]) throws(SoftwareAuthenticatorError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .openSSL(operation: "allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        let digest = algorithm == .edDSA ? nil : EVP_sha256()
        guard EVP_DigestSignInit(context, nil, digest, nil, key) == 1 else {
            throw .openSSL(operation: "start a \(algorithm) signature")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .openSSL(operation: "size a \(algorithm) signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .openSSL(operation: "make a \(algorithm) signature")
        }
        return Array(signature.prefix(length))
    }

    /// A big-number parameter as unsigned big-endian bytes, left-padded with zeros to `width` (0: no padding).
    private func parameter(_ name: String, width: Int) throws(SoftwareAuthenticatorError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            throw .openSSL(operation: "read the key parameter \"\(name)\"")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: max(width, (Int(BN_num_bits(number)) + 7) / 8))
        guard BN_bn2binpad(number, &bytes, Int32(bytes.count)) == bytes.count else {
            throw .openSSL(operation: "write the key parameter \"\(name)\"")
        }
        return bytes
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
