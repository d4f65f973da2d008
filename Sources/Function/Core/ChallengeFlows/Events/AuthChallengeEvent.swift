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

    /// Reads the event bytes the Runtime API delivers, keeping them for `serialized()`: straight into the typed
    /// fields when they read that way (see `init?(readingDirectly:)`), through a tree otherwise.
    public init(parsing bytes: [UInt8]) throws(EventDecodingError) {
        if let event = AuthChallengeEvent(readingDirectly: bytes) {
            self = event
        } else {
            try self.init(document: ParsedDocument(parsingEvent: bytes))
        }
    }

    /// Reads the event bytes straight into the typed fields, without building a tree, keeping them for
    /// `serialized()`: the same event `init(parsing:)` reads. Nil when the bytes must be read through a tree: not
    /// JSON, a field missing or of the wrong type, a field or the `response` member given twice, no `response`
    /// member, or an unknown `triggerSource`. `init(parsing:)` then reads them or names the problem.
    public init?(readingDirectly bytes: [UInt8]) {
        guard case let (header, fields, response, responseRange)? = EventFields.read(bytes) else { return nil }
        // Each part moved, not copied, into the typed event.
        let splice = MemberSplice(bytes: bytes, valueRange: responseRange)
        switch header.triggerSource {
        case .defineAuthChallenge:
            guard let event = DefineAuthChallengeEvent(header, DefineAuthChallengeRequest(fields), response, splice)
            else { return nil }
            self = .define(event)
        case .createAuthChallenge:
            guard let create = CreateAuthChallengeRequest(fields),
                let event = CreateAuthChallengeEvent(header, create, response, splice)
            else { return nil }
            self = .create(event)
        case .verifyAuthChallengeResponse:
            guard let verify = VerifyAuthChallengeResponseRequest(fields),
                let event = VerifyAuthChallengeResponseEvent(header, verify, response, splice)
            else { return nil }
            self = .verify(event)
        }
    }

    /// Reads an event from a document parsed with `ParsedDocument(parsingEvent:)`, keeping its bytes for
    /// `serialized()`.
    public init(document: ParsedDocument) throws(EventDecodingError) {
        try self.init(json: document.value, splice: document.splice)
    }

    public init(json: JSONValue) throws(EventDecodingError) {
        try self.init(json: json, splice: nil)
    }

    private init(json: JSONValue, splice: MemberSplice?) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: "$")
        let source = try reader.string("triggerSource")
        switch TriggerSource(eventValue: source) {
        case .defineAuthChallenge: self = .define(try DefineAuthChallengeEvent(json: json, splice: splice))
        case .createAuthChallenge: self = .create(try CreateAuthChallengeEvent(json: json, splice: splice))
        case .verifyAuthChallengeResponse:
            self = .verify(try VerifyAuthChallengeResponseEvent(json: json, splice: splice))
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

    /// Whom the event is about; reads two fields of the header without copying the rest.
    public var user: UserIdentity {
        switch self {
        case .define(let event): event.user
        case .create(let event): event.user
        case .verify(let event): event.user
        }
    }

    /// The header's `version`, read without copying the rest of the header.
    public var version: String? {
        switch self {
        case .define(let event): event.version
        case .create(let event): event.version
        case .verify(let event): event.version
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

    /// The response event's bytes (see `CognitoEvent.serialized()`), the response written straight from its fields.
    public func serialized() -> [UInt8] {
        switch self {
        case .define(let event): event.serializedDirectly()
        case .create(let event): event.serializedDirectly()
        case .verify(let event): event.serializedDirectly()
        }
    }
}
