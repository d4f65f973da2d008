import ChallengeCrypto

/// Turnstile's `idempotency_key`: a UUID that lets the same token be checked more than once.
///
/// Derived, not random, so that a Verify Auth Challenge that Cognito retries sends the same key with the same token
/// and gets the first verdict again rather than `timeout-or-duplicate`. The digest must cover something that belongs
/// to this one challenge (such as a nonce from the Create trigger's private parameters) as well as the token: a key
/// that depended on the token alone would let whoever replays a token with it pass again.
public enum CaptchaIdempotencyKey {
    /// The first 16 bytes of `digest` as a lower-case UUID string with the version 4 and RFC 9562 variant bits set,
    /// such as `1b4e28ba-2fa1-41d2-883f-0016d3cca427`.
    /// - Precondition: `digest` holds at least 16 bytes (a SHA-256 digest holds 32).
    public static func derive(from digest: [UInt8]) -> String {
        precondition(digest.count >= 16, "an idempotency key needs 16 bytes of digest, not \(digest.count)")
        var bytes = Array(digest.prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Hex.encode(bytes)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            let start = hex.index(hex.startIndex, offsetBy: range.lowerBound)
            return String(hex[start..<hex.index(start, offsetBy: range.count)])
        }.joined(separator: "-")
    }

    /// The key for a token within one challenge: ``derive(from:)`` of the SHA-256 of both, each preceded by its
    /// length so that no other pair hashes the same bytes.
    public static func derive(challenge: String, token: String) -> String {
        var message: [UInt8] = []
        for part in [challenge, token] {
            message += Array("\(part.utf8.count):".utf8) + Array(part.utf8)
        }
        return derive(from: SHA256.hash(message))
    }
}
