import COpenSSL

/// Owns one OpenSSL key (`EVP_PKEY`, public or private) and frees it with the last reference: the one owner of
/// such keys in the package, for passkey checks, the local pool's token signing and the test authenticator.
///
/// `@unchecked Sendable`: the key is never changed after it is made, OpenSSL 3 allows concurrent reads of an
/// `EVP_PKEY`, and every signature or check runs in its own `EVP_MD_CTX`.
public final class OpenSSLKey: @unchecked Sendable {
    /// The digest a signature is made over: SHA-256, or none where the algorithm takes the message itself (Ed25519).
    public enum Digest: Sendable {
        case sha256
        case none
    }

    /// The `EVP_PKEY`, for OpenSSL calls this type does not wrap; it lives as long as this owner.
    public let pointer: OpaquePointer

    /// Takes ownership of `key`.
    public init(taking key: OpaquePointer) {
        pointer = key
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A new random key of OpenSSL's `type` ("EC", "ED25519", "RSA"), after `configure` sets the generation context's
    /// parameters (a curve, a modulus size); false from `configure` names `configuring` as the failed operation.
    public static func generate(
        type: String, configuring: String = "", _ configure: (OpaquePointer) -> Bool = { _ in true }
    ) throws(CryptoError) -> OpenSSLKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            throw CryptoError(operation: "make a \(type) key-generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError(operation: "start a \(type) key generation") }
        guard configure(context) else { throw CryptoError(operation: configuring) }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else {
            throw CryptoError(operation: "generate a \(type) key")
        }
        return OpenSSLKey(taking: key)
    }

    /// A private key from DER (PKCS #8 `PrivateKeyInfo` or a traditional form), checked to be of OpenSSL's `type`.
    public static func privateKey(der: [UInt8], type: String) throws(CryptoError) -> OpenSSLKey {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw CryptoError(operation: "read a DER private key")
        }
        let key = OpenSSLKey(taking: parsed)
        guard key.isA(type) else { throw CryptoError(operation: "read a \(type) key: the DER key is not \(type)") }
        return key
    }

    /// Whether the key is of OpenSSL's `type` ("EC", "ED25519", "RSA").
    public func isA(_ type: String) -> Bool {
        EVP_PKEY_is_a(pointer, type) == 1
    }

    /// OpenSSL's type of the key (`EVP_PKEY_EC`, `EVP_PKEY_ED25519`, `EVP_PKEY_RSA`, …).
    public var baseType: Int32 { EVP_PKEY_get_base_id(pointer) }

    /// The key's size in bits (an RSA modulus, an EC group order).
    public var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// True when `signature` is this key's signature of `message` over `digest`; false for any failure, with
    /// OpenSSL's error queue left empty.
    public func verify(_ signature: [UInt8], of message: [UInt8], digest: Digest) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, digest.method, nil, pointer) == 1 else {
            ERR_clear_error()
            return false
        }
        let verdict = EVP_DigestVerify(context, signature, signature.count, message, message.count)
        // A failed check leaves an error on OpenSSL's thread-local queue; drop it so it is not blamed on a later call.
        ERR_clear_error()
        return verdict == 1
    }

    /// This private key's signature of `message` over `digest` (DER ECDSA for EC, PKCS #1 v1.5 for RSA, Ed25519).
    public func sign(_ message: [UInt8], digest: Digest) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError(operation: "allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, digest.method, nil, pointer) == 1 else {
            throw CryptoError(operation: "start a signature")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw CryptoError(operation: "size a signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw CryptoError(operation: "make a signature")
        }
        return Array(signature.prefix(length))
    }

    /// The public key as DER `SubjectPublicKeyInfo`.
    public func subjectPublicKeyInfoDER() throws(CryptoError) -> [UInt8] {
        let length = i2d_PUBKEY(pointer, nil)
        guard length > 0 else { throw CryptoError(operation: "size the DER public key") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(pointer, &cursor)
        }
        guard written == length else { throw CryptoError(operation: "write the DER public key") }
        return der
    }

    /// A big-number parameter (`OSSL_PKEY_PARAM_RSA_N`, `OSSL_PKEY_PARAM_EC_PUB_X`, …) as unsigned big-endian bytes,
    /// left-padded with zeros to `width` (0: no padding, no leading zeros).
    public func bigNumber(_ name: String, width: Int = 0) throws(CryptoError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(pointer, name, &number) == 1, let number else {
            throw CryptoError(operation: "read the key parameter \"\(name)\"")
        }
        defer { BN_free(number) }
        let size = (Int(BN_num_bits(number)) + 7) / 8
        guard width == 0 || size <= width else {
            throw CryptoError(operation: "fit the key parameter \"\(name)\" in \(width) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: max(size, width))
        guard BN_bn2binpad(number, &bytes, Int32(bytes.count)) == bytes.count else {
            throw CryptoError(operation: "write the key parameter \"\(name)\"")
        }
        return bytes
    }

    /// The raw public key of an Ed25519 (or X25519) key.
    public func rawPublicKey() throws(CryptoError) -> [UInt8] {
        var length = 0
        guard EVP_PKEY_get_raw_public_key(pointer, nil, &length) == 1 else {
            throw CryptoError(operation: "size the raw public key")
        }
        var raw = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_get_raw_public_key(pointer, &raw, &length) == 1 else {
            throw CryptoError(operation: "read the raw public key")
        }
        return raw
    }
}

extension OpenSSLKey.Digest {
    fileprivate var method: OpaquePointer? {
        switch self {
        case .sha256: EVP_sha256()
        case .none: nil
        }
    }
}
