/// Signed, expiring tokens for sign-in links: bound to a user pool, a user name and a step of the sign-in, and told
/// apart by a random nonce. Pure: no clock, no I/O; the caller passes the time and the randomness.
///
/// A token is base64url without padding (so it goes into a URL as it is) of a small binary payload and its
/// HMAC-SHA256 under a key chosen by id, so keys can be rotated: issue with the newest, verify with all still valid.
public enum MagicLinkToken {
    /// Keys shorter than this are refused: 32 random bytes is the intended size.
    public static let minimumKeyByteCount = 16
    /// Key ids are 1 to this many ASCII letters, digits, `-`, `_` or `.`.
    public static let maximumKeyIDByteCount = 32
    /// Longer text is never a token; verification stops before decoding it.
    static let maximumTokenLength = 4 * (MagicLinkPayload.fixedByteCount + maximumKeyIDByteCount + MagicLinkPayload.macByteCount + 2) / 3
    private static let label = Array("cognito-magic-link-v1".utf8)

    /// A new token for one user's step, valid until `expiresAt` (Unix seconds), and the digest of its nonce.
    ///
    /// Keep the digest (never the token) with the sign-in's state and, once a token verifies, compare it with
    /// ``digest(ofNonce:)`` of the verdict's nonce: then only the latest link works, and only once.
    public static func issue(
        key: [UInt8], keyID: String, userPoolId: String, userName: String, stepIndex: Int, expiresAt: Int64,
        random: some RandomSource
    ) throws(MagicLinkTokenError) -> (token: String, digest: [UInt8]) {
        guard key.count >= minimumKeyByteCount else { throw .keyTooShort(byteCount: key.count) }
        guard isKeyID(keyID.utf8) else { throw .invalidKeyID(keyID) }
        guard let step = UInt16(exactly: stepIndex) else { throw .stepIndexOutOfRange(stepIndex) }
        let nonce: [UInt8]
        do {
            nonce = try random.bytes(count: MagicLinkPayload.nonceByteCount)
        } catch {
            throw .randomUnavailable("\(error)")
        }
        let payload = MagicLinkPayload(
            keyID: keyID, stepIndex: step, expiresAt: expiresAt,
            subjectTag: subjectTag(key: key, userPoolId: userPoolId, userName: userName), nonce: nonce)
        let signed = payload.bytes
        return (Base64URL.encode(signed + mac(key: key, signed: signed)), digest(ofNonce: nonce))
    }

    /// Judges a token from a link for the user and step now signing in, at `now` (Unix seconds): valid until the
    /// second it expires. `keys` maps key ids to keys; MACs are compared in constant time.
    public static func verify(
        token: String, keys: [String: [UInt8]], userPoolId: String, userName: String, stepIndex: Int, now: Int64
    ) -> MagicLinkVerdict {
        guard token.utf8.count <= maximumTokenLength, let bytes = Base64URL.decode(token),
            bytes.count > MagicLinkPayload.macByteCount
        else { return .malformed }
        let signed = bytes.dropLast(MagicLinkPayload.macByteCount)
        guard let payload = MagicLinkPayload(decoding: signed) else { return .malformed }
        guard let key = keys[payload.keyID] else { return .unknownKey }
        guard constantTimeEquals(mac(key: key, signed: Array(signed)), Array(bytes.suffix(MagicLinkPayload.macByteCount))) else {
            return .tampered
        }
        guard constantTimeEquals(subjectTag(key: key, userPoolId: userPoolId, userName: userName), payload.subjectTag) else {
            return .otherUser
        }
        guard Int(payload.stepIndex) == stepIndex else { return .otherStep }
        guard now < payload.expiresAt else { return .expired }
        return .valid(nonce: payload.nonce)
    }

    /// SHA-256 of a nonce: what to keep to recognise the one link that may still be used.
    public static func digest(ofNonce nonce: [UInt8]) -> [UInt8] {
        SHA256.hash(nonce)
    }

    /// 1 to ``maximumKeyIDByteCount`` ASCII letters, digits, `-`, `_` or `.`.
    static func isKeyID(_ bytes: some Collection<UInt8>) -> Bool {
        (1...maximumKeyIDByteCount).contains(bytes.count)
            && bytes.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
            }
    }

    private static func mac(key: [UInt8], signed: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(key: key, message: label + [0] + signed)
    }

    /// A keyed tag of the pool and user name, each preceded by its length so that no two pairs share an input.
    private static func subjectTag(key: [UInt8], userPoolId: String, userName: String) -> [UInt8] {
        var message = label + Array(" subject".utf8) + [0]
        for part in [userPoolId, userName] {
            let length = UInt32(truncatingIfNeeded: part.utf8.count)
            message += stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: length >> UInt32($0)) }
            message += part.utf8
        }
        return Array(HMACSHA256.authenticationCode(key: key, message: message).prefix(MagicLinkPayload.subjectTagByteCount))
    }
}
