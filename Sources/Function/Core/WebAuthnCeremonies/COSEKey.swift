import ChallengeCrypto
import COpenSSL

extension OpenSSLKey {
    /// True when `signature` is this key's signature of `message` under COSE algorithm `algorithm`: ES256 (DER
    /// ECDSA over SHA-256), RS256 (RSASSA-PKCS1-v1_5 over SHA-256) or EdDSA (Ed25519 over the message itself).
    /// False too when the key is not of the algorithm's type.
    func verify(_ signature: [UInt8], of message: [UInt8], algorithm: Int) -> Bool {
        switch (algorithm, baseType) {
        case (COSEKey.es256, EVP_PKEY_EC), (COSEKey.rs256, EVP_PKEY_RSA): verify(signature, of: message, digest: .sha256)
        case (COSEKey.edDSA, EVP_PKEY_ED25519): verify(signature, of: message, digest: .none)
        default: false
        }
    }
}

/// A credential public key in COSE_Key form (RFC 9052/9053), as the attested credential data carries it, loaded
/// into OpenSSL: EC2 P-256 for ES256, OKP Ed25519 for EdDSA, RSA (2048 bits or more) for RS256.
struct COSEKey: Sendable {
    static let es256 = -7
    static let edDSA = -8
    static let rs256 = -257

    /// The smallest RSA modulus accepted, in bits.
    static let minimumRSABits = 2048
    /// The largest RSA modulus accepted, in bits (bounds the cost of a check on untrusted input).
    static let maximumRSABits = 8192

    /// The COSE algorithm (`3`).
    let algorithm: Int
    let publicKey: OpenSSLKey

    /// Reads COSE_Key bytes (one CBOR map, nothing after it).
    init(bytes: [UInt8]) throws(WebAuthnError) {
        let value: CBORValue
        do {
            value = try CBORDecoder.decode(bytes)
        } catch {
            throw .malformed("credential public key: \(error)")
        }
        try self.init(value)
    }

    /// Reads a decoded COSE_Key map.
    init(_ value: CBORValue) throws(WebAuthnError) {
        guard value.mapValue != nil else { throw .malformed("the credential public key is not a CBOR map") }
        guard let keyType = value[1]?.intValue else { throw .malformed("the COSE key has no key type (1)") }
        guard let algorithm = value[3]?.intValue else { throw .malformed("the COSE key has no algorithm (3)") }
        self.algorithm = algorithm
        switch algorithm {
        case Self.es256:
            guard keyType == 2 else { throw .malformed("ES256 COSE key of key type \(keyType), not EC2 (2)") }
            guard value[-1]?.intValue == 1 else { throw .unsupportedAlgorithm(algorithm) }
            guard let x = value[-2]?.bytesValue, x.count == 32, let y = value[-3]?.bytesValue, y.count == 32 else {
                throw .malformed("the P-256 COSE key needs x (-2) and y (-3) of 32 bytes each")
            }
            publicKey = try Self.p256Key(point: [0x04] + x + y)
        case Self.edDSA:
            guard keyType == 1 else { throw .malformed("EdDSA COSE key of key type \(keyType), not OKP (1)") }
            guard value[-1]?.intValue == 6 else { throw .unsupportedAlgorithm(algorithm) }
            guard let x = value[-2]?.bytesValue, x.count == 32 else {
                throw .malformed("the Ed25519 COSE key needs x (-2) of 32 bytes")
            }
            guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, x, x.count) else {
                ERR_clear_error()
                throw .malformed("OpenSSL refused the Ed25519 public key")
            }
            publicKey = OpenSSLKey(taking: key)
        case Self.rs256:
            guard keyType == 3 else { throw .malformed("RS256 COSE key of key type \(keyType), not RSA (3)") }
            guard let n = value[-1]?.bytesValue, let e = value[-2]?.bytesValue, !n.isEmpty, !e.isEmpty, e.count <= 8
            else { throw .malformed("the RSA COSE key needs n (-1) and e (-2)") }
            publicKey = try Self.rsaKey(modulus: n, exponent: e)
        default:
            throw .unsupportedAlgorithm(algorithm)
        }
    }

    /// Verifies `signature` over `message` with this key and its algorithm.
    func verify(_ signature: [UInt8], of message: [UInt8]) -> Bool {
        publicKey.verify(signature, of: message, algorithm: algorithm)
    }

    /// A P-256 public key from an uncompressed point, refused unless the point is on the curve.
    private static func p256Key(point: [UInt8]) throws(WebAuthnError) -> OpenSSLKey {
        let key = fromData(type: "EC") { build in
            "prime256v1".withCString { curve in
                point.withUnsafeBytes { pointBytes in
                    build([
                        OSSL_PARAM_construct_utf8_string(cString("group"), UnsafeMutablePointer(mutating: curve), 0),
                        OSSL_PARAM_construct_octet_string(
                            cString("pub"), UnsafeMutableRawPointer(mutating: pointBytes.baseAddress), point.count),
                        OSSL_PARAM_construct_end(),
                    ])
                }
            }
        }
        guard let key else { throw .malformed("the P-256 public key is not a point on the curve") }
        let handle = OpenSSLKey(taking: key)
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, key, nil) else {
            throw .malformed("OpenSSL could not check the P-256 public key")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check(context) == 1 else {
            ERR_clear_error()
            throw .malformed("the P-256 public key is not a point on the curve")
        }
        return handle
    }

    /// An RSA public key from big-endian modulus and exponent, refused below 2048 bits or with an even exponent.
    private static func rsaKey(modulus: [UInt8], exponent: [UInt8]) throws(WebAuthnError) -> OpenSSLKey {
        // OSSL_PARAM numbers are in the machine's byte order.
        let nativeOrder = { (bytes: [UInt8]) in 1.littleEndian == 1 ? Array(bytes.reversed()) : bytes }
        let n = nativeOrder(modulus)
        let e = nativeOrder(exponent)
        let significant = exponent.drop { $0 == 0 }
        guard significant.last.map({ $0 & 1 == 1 }) == true, !significant.elementsEqual([1]) else {
            throw .malformed("the RSA public exponent is not an odd number above 1")
        }
        let key = fromData(type: "RSA") { build in
            n.withUnsafeBytes { nBytes in
                e.withUnsafeBytes { eBytes in
                    build([
                        OSSL_PARAM_construct_BN(
                            cString("n"),
                            UnsafeMutablePointer(mutating: nBytes.bindMemory(to: UInt8.self).baseAddress), n.count),
                        OSSL_PARAM_construct_BN(
                            cString("e"),
                            UnsafeMutablePointer(mutating: eBytes.bindMemory(to: UInt8.self).baseAddress), e.count),
                        OSSL_PARAM_construct_end(),
                    ])
                }
            }
        }
        guard let key else { throw .malformed("OpenSSL refused the RSA public key") }
        let handle = OpenSSLKey(taking: key)
        let bits = Int(EVP_PKEY_get_bits(key))
        guard bits >= minimumRSABits, bits <= maximumRSABits else {
            throw .malformed("the RSA modulus has \(bits) bits; \(minimumRSABits) to \(maximumRSABits) are accepted")
        }
        return handle
    }

    /// `EVP_PKEY_PUBLIC_KEY`, a macro Swift does not import: the public key with its domain and other parameters.
    private static let publicKeySelection = OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS
        | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS

    /// A parameter name for an `OSSL_PARAM`, which keeps the pointer: a literal's bytes live as long as the program.
    private static func cString(_ name: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// `EVP_PKEY_fromdata` for a public key of `type`; `parameters` hands the OSSL_PARAM list to the closure it is given.
    private static func fromData(
        type: String, _ parameters: (([OSSL_PARAM]) -> OpaquePointer?) -> OpaquePointer?
    ) -> OpaquePointer? {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { return nil }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_fromdata_init(context) == 1 else {
            ERR_clear_error()
            return nil
        }
        let key = parameters { list in
            var list = list
            var key: OpaquePointer?
            guard EVP_PKEY_fromdata(context, &key, publicKeySelection, &list) == 1 else { return nil }
            return key
        }
        ERR_clear_error()
        return key
    }
}
