import LosslessJSON

/// The name of a challenge in a Cognito auth session. Names this package does not know are kept as they are.
public struct ChallengeName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let customChallenge = ChallengeName(rawValue: "CUSTOM_CHALLENGE")
    public static let srpA = ChallengeName(rawValue: "SRP_A")
    public static let passwordVerifier = ChallengeName(rawValue: "PASSWORD_VERIFIER")

    public var description: String { rawValue }
}

/// One challenge already answered in this sign-in, as Cognito lists it in `request.session`.
public struct SessionEntry: Sendable, Equatable {
    public var challengeName: ChallengeName
    public var challengeResult: Bool
    /// What Create Auth Challenge recorded for this challenge; nil when absent or null.
    public var challengeMetadata: String?

    public init(challengeName: ChallengeName, challengeResult: Bool, challengeMetadata: String? = nil) {
        self.challengeName = challengeName
        self.challengeResult = challengeResult
        self.challengeMetadata = challengeMetadata
    }

    init(_ reader: FieldReader) throws(EventDecodingError) {
        challengeName = ChallengeName(rawValue: try reader.string("challengeName"))
        // Seen in the wild: a null result for a challenge that was never answered; it did not succeed.
        challengeResult = try reader.optionalBool("challengeResult") ?? false
        challengeMetadata = try reader.optionalString("challengeMetadata")
    }

    /// The entry as Cognito writes it.
    public var json: JSONValue {
        [
            "challengeName": .string(challengeName.rawValue),
            "challengeResult": .bool(challengeResult),
            "challengeMetadata": challengeMetadata.map(JSONValue.string) ?? .null,
        ]
    }

    static func readSession(_ reader: FieldReader) throws(EventDecodingError) -> [SessionEntry] {
        let elements = try reader.optionalArray("session") ?? []
        var entries: [SessionEntry] = []
        entries.reserveCapacity(elements.count)
        for (position, element) in elements.enumerated() {
            entries.append(try SessionEntry(reader.elementReader(element, of: "session", at: position)))
        }
        return entries
    }
}
