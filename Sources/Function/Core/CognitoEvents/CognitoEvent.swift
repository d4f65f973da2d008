import LosslessJSON

/// The `request` part of one trigger's event.
public protocol TriggerRequest: Sendable, Equatable {
    /// The trigger this request belongs to.
    static var triggerSource: TriggerSource { get }
    /// Reads the request object; `path` is where it sits in the event, for error messages.
    init(json: JSONValue, path: String) throws(EventDecodingError)
}

/// The `response` part of one trigger's event: what the handler fills in.
public protocol TriggerResponse: Sendable, Equatable {
    /// Reads a response as Cognito sent it (often `{}` or fields set to null); nil when absent.
    init(json: JSONValue?, path: String) throws(EventDecodingError)
    /// Writes the fields that are set into Cognito's response object, leaving any others as they were.
    func write(into object: inout JSONObject)
}

/// A Cognito trigger event: typed header, request and response over the event exactly as it arrived.
///
/// Decoding then encoding gives back the input: unknown keys at every level, key order, nulls and number literals
/// are kept. Only the response fields a handler sets are written over the original `response` object.
public struct CognitoEvent<Request: TriggerRequest, Response: TriggerResponse>: Sendable, Equatable {
    public let header: EventHeader
    public let request: Request
    public var response: Response
    private let original: JSONObject
    /// The bytes the event was read from, with where its `response` value lies: kept so that `serialized()` can
    /// splice the new response into them.
    private let source: ParsedDocument?

    public init(json: JSONValue) throws(EventDecodingError) {
        try self.init(json: json, source: nil)
    }

    init(json: JSONValue, source: ParsedDocument?) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: "$")
        header = try EventHeader(reader)
        guard header.triggerSource == Request.triggerSource else {
            throw .wrongType(
                path: reader.fieldPath("triggerSource"), expected: "\"\(Request.triggerSource.rawValue)\"",
                found: "\"\(header.triggerSource.rawValue)\"")
        }
        guard let requestJSON = reader.value("request") else { throw .missingField(path: reader.fieldPath("request")) }
        // The reader is the event's root, "$".
        request = try Request(json: requestJSON, path: "$.request")
        response = try Response(json: reader.value("response"), path: "$.response")
        original = reader.object
        self.source = source
    }

    /// Reads an event from UTF-8 JSON (a leading byte-order mark is allowed).
    public init(parsing bytes: some Collection<UInt8>) throws(EventDecodingError) {
        let document = try ParsedDocument(parsingEvent: Array(bytes))
        try self.init(json: document.value, source: document)
    }

    /// The whole event with the response filled in: what Cognito expects back.
    public var json: JSONValue {
        var event = original
        event["response"] = .object(responseObject)
        return .object(event)
    }

    /// The response event's bytes. An event read from bytes comes back as those bytes with the `response` value
    /// replaced (compact), which costs a fraction of writing the whole event again; otherwise `json`, compact.
    public func serialized() -> [UInt8] {
        source?.replacingMemberValue(with: .object(responseObject)) ?? json.serialized()
    }

    /// The `response` object as it arrived, with the fields the handler set written over it.
    private var responseObject: JSONObject {
        var object = original["response"]?.objectValue ?? JSONObject()
        response.write(into: &object)
        return object
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.json == rhs.json
    }
}

extension CognitoEvent: Codable {
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}

extension ParsedDocument {
    /// Parses event bytes, locating the `response` value; bad JSON is reported as an event error. A function that
    /// serves other events too reads the bytes once this way, then hands a trigger event to
    /// `AuthChallengeEvent(document:)`.
    public init(parsingEvent bytes: [UInt8]) throws(EventDecodingError) {
        do {
            self = try ParsedDocument(parsing: bytes, locatingRootMember: "response")
        } catch {
            throw .invalidJSON(error)
        }
    }
}
