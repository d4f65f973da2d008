/// The three Cognito user-pool triggers of a custom authentication flow.
public enum TriggerSource: String, Sendable, CaseIterable, CustomStringConvertible {
    case defineAuthChallenge = "DefineAuthChallenge_Authentication"
    case createAuthChallenge = "CreateAuthChallenge_Authentication"
    case verifyAuthChallengeResponse = "VerifyAuthChallengeResponse_Authentication"

    /// Reads a `triggerSource` value, with or without the `_Authentication` suffix.
    public init?(eventValue: String) {
        // The full name first, as Cognito sends it; only a short name is spelt out again with the suffix (a value
        // that has the suffix and is not a trigger would not be one with it twice).
        if let trigger = TriggerSource(rawValue: eventValue) {
            self = trigger
        } else {
            self.init(rawValue: eventValue + "_Authentication")
        }
    }

    /// The `triggerSource` values `init?(eventValue:)` reads, as bytes: the raw values in the order of `allCases`,
    /// then the short names in the same order.
    static let eventValues: [StaticString] = [
        "DefineAuthChallenge_Authentication", "CreateAuthChallenge_Authentication",
        "VerifyAuthChallengeResponse_Authentication", "DefineAuthChallenge", "CreateAuthChallenge",
        "VerifyAuthChallengeResponse",
    ]

    /// The trigger's short name, e.g. `DefineAuthChallenge`.
    public var shortName: String {
        String(Substring(rawValue.utf8.prefix { $0 != UInt8(ascii: "_") }))
    }

    public var description: String { shortName }
}

/// Who called: the SDK version and the app client.
public struct CallerContext: Sendable, Equatable {
    public var awsSdkVersion: String?
    public var clientId: String?

    public init(awsSdkVersion: String? = nil, clientId: String? = nil) {
        self.awsSdkVersion = awsSdkVersion
        self.clientId = clientId
    }
}

/// The fields every Cognito trigger event carries.
public struct EventHeader: Sendable, Equatable {
    public var version: String?
    public var triggerSource: TriggerSource
    public var region: String?
    public var userPoolId: String?
    public var userName: String
    /// Read from the event's bytes when first asked for: the triggers never ask, so a warm invocation does not make
    /// (and free) its two strings.
    public var callerContext: CallerContext {
        get { caller.context }
        set { caller = .read(newValue) }
    }
    private var caller: CallerContextSource

    init(
        version: String?, triggerSource: TriggerSource, region: String?, userPoolId: String?, userName: String,
        callerContext: CallerContextSource
    ) {
        self.version = version
        self.triggerSource = triggerSource
        self.region = region
        self.userPoolId = userPoolId
        self.userName = userName
        caller = callerContext
    }

    init(_ reader: FieldReader) throws(EventDecodingError) {
        version = try reader.optionalString("version")
        let source = try reader.string("triggerSource")
        guard let triggerSource = TriggerSource(eventValue: source) else { throw .unknownTriggerSource(source) }
        self.triggerSource = triggerSource
        region = try reader.optionalString("region")
        userPoolId = try reader.optionalString("userPoolId")
        userName = try reader.string("userName")
        let caller = try reader.optionalReader("callerContext")
        self.caller = .read(
            CallerContext(
                awsSdkVersion: try caller?.optionalString("awsSdkVersion"),
                clientId: try caller?.optionalString("clientId")))
    }

    public static func == (lhs: EventHeader, rhs: EventHeader) -> Bool {
        lhs.version == rhs.version && lhs.triggerSource == rhs.triggerSource && lhs.region == rhs.region
            && lhs.userPoolId == rhs.userPoolId && lhs.userName == rhs.userName
            && lhs.callerContext == rhs.callerContext
    }
}
