import COpenSSL
@testable import WebAuthn

/// A private key made for a test, with the COSE form of its public half and signatures in each algorithm's format.
final class TestKey: @unchecked Sendable {
    enum Kind: Sendable, CaseIterable, CustomStringConvertible {
        case es256, edDSA, rs256

        var algorithm: Int {
            switch self {
            case .es256: -7
            case .edDSA: -8
            case .rs256: -257
            }
        }

        var description: String {
            switch self {
            case .es256: "ES256"
            case .edDSA: "EdDSA"
            case .rs256: "RS256"
            }
        }
    }

    let key: OpaquePointer
    let kind: Kind

    /// A fresh key of `kind` (RSA: 2048 bits).
    init(_ kind: Kind) {
        self.kind = kind
        let name = switch kind {
        case .es256: "EC"
        case .edDSA: "ED25519"
        case .rs256: "RSA"
        }
        let context = EVP_PKEY_CTX_new_from_name(nil, name, nil)!
        defer { EVP_PKEY_CTX_free(context) }
        precondition(EVP_PKEY_keygen_init(context) == 1)
        switch kind {
        case .es256: precondition(EVP_PKEY_CTX_set_group_name(context, "P-256") == 1)
        case .rs256: precondition(EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1)
        case .edDSA: break
        }
        var key: OpaquePointer?
        precondition(EVP_PKEY_generate(context, &key) == 1)
        self.key = key!
    }

    /// The private key in a PEM file `openssl` wrote.
    init(pem: [UInt8]) {
        let bio = pem.withUnsafeBytes { BIO_new_mem_buf($0.baseAddress, Int32($0.count)) }!
        defer { BIO_free(bio) }
        key = PEM_read_bio_PrivateKey(bio, nil, nil, nil)!
        kind = switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_EC: .es256
        case EVP_PKEY_ED25519: .edDSA
        default: .rs256
        }
    }

    deinit {
        EVP_PKEY_free(key)
    }

    /// Keys made once per test run (RSA key generation is slow).
    static let shared: [Kind: TestKey] = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, TestKey($0)) })
    /// A second key of each kind: "another credential".
    static let others: [Kind: TestKey] = Dictionary(uniqueKeysWithValues: Kind.allCases.map { ($0, TestKey($0)) })

    /// The public key as a COSE_Key map.
    var cose: CBORValue {
        switch kind {
        case .es256:
            var point = [UInt8](repeating: 0, count: 65)
            var length = 0
            precondition(EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &length) == 1 && length == 65)
            return .entries([
                (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)), (.int(-2), .bytes(Array(point[1..<33]))),
                (.int(-3), .bytes(Array(point[33..<65]))),
            ])
        case .edDSA:
            var raw = [UInt8](repeating: 0, count: 32)
            var length = 32
            precondition(EVP_PKEY_get_raw_public_key(key, &raw, &length) == 1)
            return .entries([(.int(1), .int(1)), (.int(3), .int(-8)), (.int(-1), .int(6)), (.int(-2), .bytes(raw))])
        case .rs256:
            return .entries([
                (.int(1), .int(3)), (.int(3), .int(-257)), (.int(-1), .bytes(parameter("n"))),
                (.int(-2), .bytes(parameter("e"))),
            ])
        }
    }

    var coseBytes: [UInt8] { cose.encoded }

    private func parameter(_ name: String) -> [UInt8] {
        var number: OpaquePointer?
        precondition(EVP_PKEY_get_bn_param(key, name, &number) == 1)
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: (Int(BN_num_bits(number)) + 7) / 8)
        precondition(BN_bn2bin(number, &bytes) == bytes.count)
        return bytes
    }

    /// The signature of `message` in the key's algorithm (ES256 DER ECDSA, RS256 PKCS #1 v1.5, Ed25519).
    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()!
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, kind == .edDSA ? nil : EVP_sha256(), nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1)
        return Array(signature.prefix(length))
    }
}
