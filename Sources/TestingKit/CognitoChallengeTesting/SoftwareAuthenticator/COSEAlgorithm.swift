/// The COSE signature algorithms the authenticator makes keys for (IANA COSE Algorithms registry).
public enum COSEAlgorithm: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// ECDSA over P-256 with SHA-256; signatures are DER `Ecdsa-Sig-Value`.
    case es256 = -7
    /// Ed25519 over the message itself.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256, on a 2048-bit key.
    case rs256 = -257

    public var description: String {
        switch self {
        case .es256: "ES256"
        case .edDSA: "EdDSA"
        case .rs256: "RS256"
        }
    }
}
