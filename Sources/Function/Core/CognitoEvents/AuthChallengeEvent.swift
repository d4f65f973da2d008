import LosslessJSON

/// Any of the three custom-auth trigger events, chosen by its `triggerSource`.
public enum AuthChallengeEvent: Sendable, Equatable {
    case define(DefineAuthChallengeEvent)
    case create(CreateAuthChallengeEvent)
    case verify(VerifyAuthChallengeResponseEvent)

    /// Reads raw event bytes and dispatches on `triggerSource`.
    public init(parsing bytes: some Collection<UInt8>) throws(EventDecodingError) {
        try self.init(parsing: Array(bytes))
    }

    /// Reads the event bytes the Runtime API delivers, keeping them for `serialized()`.
    public init(parsing bytes: [UInt8]) throws(EventDecodingError) {
        let document = try ParsedDocument(parsingEvent: bytes)
        try self.init(json: document.value, source: document)
    }

    /// Reads an event from a document parsed with `ParsedDocument(parsingEvent:)`, keeping its bytes for
    /// `serialized()`.
    public init(document: ParsedDocument) throws(EventDecodingError) {
        try self.init(json: document.value, source: document)
    }

    public init(json: JSONValue) throws(EventDecodingError) {
        try self.init(json: json, source: nil)
    }

    private init(json: JSONValue, source document: ParsedDocument?) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: "$")
        let source = try reader.string("triggerSource")
        switch TriggerSource(eventValue: source) {
        case .defineAuthChallenge: self = .define(try DefineAuthChallengeEvent(json: json, source: document))
        case .createAuthChallenge: self = .create(try CreateAuthChallengeEvent(json: json, source: document))
        case .verifyAuthChallengeResponse:
            self = .verify(try VerifyAuthChallengeResponseEvent(json: json, source: document))
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

    /// The response event's bytes (see `CognitoEvent.serialized()`).
    public func serialized() -> [UInt8] {
        switch self {
        case .define(let event): event.serialized()
        case .create(let event): event.serialized()
        case .verify(let event): event.serialized()
        }
    }
}
