import LosslessJSON

/// Any of the three custom-auth trigger events, chosen by its `triggerSource`.
public enum AuthChallengeEvent: Sendable, Equatable {
    case define(DefineAuthChallengeEvent)
    case create(CreateAuthChallengeEvent)
    case verify(VerifyAuthChallengeResponseEvent)

    /// Reads raw event bytes and dispatches on `triggerSource`.
    public init(parsing bytes: some Collection<UInt8>) throws(EventDecodingError) {
        try self.init(json: JSONValue(parsingEvent: bytes))
    }

    /// Reads the event bytes the Runtime API delivers: the same as the generic reader, without generic dispatch.
    public init(parsing bytes: [UInt8]) throws(EventDecodingError) {
        try self.init(json: JSONValue(parsingEvent: bytes))
    }

    public init(json: JSONValue) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: "$")
        let source = try reader.string("triggerSource")
        switch TriggerSource(eventValue: source) {
        case .defineAuthChallenge: self = .define(try DefineAuthChallengeEvent(json: json))
        case .createAuthChallenge: self = .create(try CreateAuthChallengeEvent(json: json))
        case .verifyAuthChallengeResponse: self = .verify(try VerifyAuthChallengeResponseEvent(json: json))
        case nil: throw .unknownTriggerSource(source)
        }
    }

    public var header: EventHeader {
        switch self {
        case .define(let event): event.header
        case .create(let event): event.header
        case .verify(let event): event.header
        }
    }

    /// The whole event with its response, as Cognito expects it back.
    public var json: JSONValue {
        switch self {
        case .define(let event): event.json
        case .create(let event): event.json
        case .verify(let event): event.json
        }
    }
}
