import COpenSSL

/// Owns one OpenSSL RSA private key (`EVP_PKEY`) and frees it with the last reference.
///
/// `@unchecked Sendable`: the key is never changed after it is made, OpenSSL 3 allows concurrent reads of an
/// `EVP_PKEY`, and every signature or check below runs in its own `EVP_MD_CTX`.
final class RSAKeyHandle: @unchecked Sendable {
    let key: OpaquePointer

    /// Takes ownership of `key`.
    init(taking key: OpaquePointer) {
        self.key = key
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// The modulus size in bits.
    var bits: Int { Int(EVP_PKEY_get_bits(key)) }

    /// RSASSA-PKCS1-v1_5 over SHA-256 (`EVP_DigestSign`; PKCS #1 v1.5 is OpenSSL's default RSA padding).
    func signSHA256(_ message: [UInt8]) throws(SigningKeyError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw .openSSL(operation: "allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
            throw .openSSL(operation: "start an RS256 signature")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
            throw .openSSL(operation: "size an RS256 signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else {
            throw .openSSL(operation: "make an RS256 signature")
        }
        return Array(signature.prefix(length))
    }

    /// True when `signature` is this key's RSASSA-PKCS1-v1_5 SHA-256 signature of `message`.
    func verifySHA256(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
        let verdict = EVP_DigestVerify(context, signature, signature.count, message, message.count)
        // A failed check leaves an error on OpenSSL's thread-local queue; drop it so it is not blamed on a later call.
        ERR_clear_error()
        return verdict == 1
    }

    /// The public key as DER `SubjectPublicKeyInfo`.
    func publicKeyDER() throws(SigningKeyError) -> [UInt8] {
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw .openSSL(operation: "size the DER public key") }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { throw .openSSL(operation: "write the DER public key") }
        return der
    }

    /// An RSA parameter (`OSSL_PKEY_PARAM_RSA_N`, `OSSL_PKEY_PARAM_RSA_E`) as big-endian bytes without leading zeros.
    func parameter(_ name: String) throws(SigningKeyError) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            throw .openSSL(operation: "read the RSA parameter \"\(name)\"")
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        guard BN_bn2bin(number, &bytes) == bytes.count else {
            throw .openSSL(operation: "write the RSA parameter \"\(name)\"")
        }
        return bytes
    }

    /// The private key as unencrypted PKCS #8 PEM (`-----BEGIN PRIVATE KEY-----`).
    func pkcs8PEM() throws(SigningKeyError) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw .openSSL(operation: "allocate a memory BIO") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PKCS8PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
            throw .openSSL(operation: "write the private key as PKCS #8 PEM")
        }
        var text = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        guard BIO_read(bio, &text, Int32(text.count)) == text.count else {
            throw .openSSL(operation: "read the PEM text back")
        }
        return String(decoding: text, as: UTF8.self)
    }
}
