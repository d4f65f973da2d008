import ChallengeCrypto

/// Shows where a text message went without showing the number: `+14155550123` → `+*******0123`.
///
/// Every mask has the same shape whatever the number's length, so masks say nothing about the country, and an
/// unknown user's decoy looks like any real mask.
public enum PhoneMask {
    /// The last four digits after `+*******`; a number of four digits or fewer is all stars.
    public static func mask(_ phoneNumber: String) -> String {
        let digits = phoneNumber.utf8.filter { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard digits.count > 4 else { return "+*******" + "****" }
        return "+*******" + String(decoding: digits.suffix(4), as: UTF8.self)
    }

    /// A plausible mask for a user that does not exist (or has no usable number), stable for a user name: four
    /// digits from a keyed digest of the name (``ChallengeKeys``'s decoy key).
    static func decoy(for userName: String, key: [UInt8]) -> String {
        let digest = HMACSHA256.authenticationCode(key: key, message: "decoy-phone/v1\u{0}\(userName.lowercased())")
        // Cosmetic: the bias of `% 10000` on 32 bits reveals nothing.
        let value = digest.prefix(4).reduce(0) { $0 << 8 | Int($1) } % 10_000
        let digits = String(value)
        return "+*******" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}
