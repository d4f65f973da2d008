/// The name a custom step writes into its seals and metadata (`KIND` in `KIND:step:expiresAt:hash:keyID`), e.g.
/// `EMAIL_CODE`.
///
/// Upper-case ASCII letters, digits and `_`, starting with a letter, at most 40 characters, so that it never holds
/// the `:` that separates metadata fields. The built-in steps use ``emailCode`` and ``captcha``; a step of your
/// own picks a kind of its own.
public struct ChallengeKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The kind as written in seals, e.g. `EMAIL_CODE`.
    public let rawValue: String

    /// The longest kind accepted, in characters.
    public static let maximumLength = 40

    /// A one-time code sent by email.
    public static let emailCode = ChallengeKind(checked: "EMAIL_CODE")
    /// An image (or a provider's widget) whose answer the user gives back.
    public static let captcha = ChallengeKind(checked: "CAPTCHA")

    /// A kind from its written form; nil unless it is upper-case letters, digits and `_`, starting with a letter.
    public init?(rawValue: String) {
        var text = rawValue
        let valid = text.withUTF8 { characters in
            guard let first = characters.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first),
                  characters.count <= Self.maximumLength
            else { return false }
            return characters.allSatisfy(Self.isKindCharacter)
        }
        guard valid else { return nil }
        self.rawValue = rawValue
    }

    private init(checked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The kind as written in seals.
    public var description: String { rawValue }

    private static func isKindCharacter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            || byte == UInt8(ascii: "_")
    }
}
