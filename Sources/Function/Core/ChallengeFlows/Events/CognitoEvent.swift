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
    public var header: EventHeader { arrived.header }
    /// Whom the event is about: its pool (empty when absent) and user name, read without copying the whole header.
    public var user: UserIdentity { UserIdentity(userPoolId: arrived.header.userPoolId ?? "", userName: arrived.header.userName) }
    /// The header's `version`, read without copying the whole header.
    public var version: String? { arrived.header.version }
    public var request: Request { arrived.request }
    public var response: Response
    /// What does not change once the event is read, in one object: a copy of the event, as a handler makes to set
    /// its response, retains that object instead of each of the event's strings, maps and arrays.
    private let arrived: Arrived

    private final class Arrived: Sendable {
        let header: EventHeader
        let request: Request
        /// The `response` object as it arrived: empty when absent, null or not an object.
        let incomingResponse: JSONObject
        let original: Original

        init(header: EventHeader, request: Request, incomingResponse: JSONObject, original: Original) {
            self.header = header
            self.request = request
            self.incomingResponse = incomingResponse
            self.original = original
        }
    }

    /// What the event was read from.
    private enum Original: Sendable {
        /// A tree; with the bytes the tree was read from and where their `response` value lies, when they have one
        /// `response` member, so that `serialized()` can splice the new response into them.
        case tree(JSONObject, splice: MemberSplice?)
        /// Bytes read straight into the typed fields (`EventFields`), and where their `response` value lies.
        case bytes(MemberSplice)
    }

    public init(json: JSONValue) throws(EventDecodingError) {
        try self.init(json: json, splice: nil)
    }

    init(json: JSONValue, splice: MemberSplice?) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: "$")
        let header = try EventHeader(reader)
        guard header.triggerSource == Request.triggerSource else {
            throw .wrongType(
                path: reader.fieldPath("triggerSource"), expected: "\"\(Request.triggerSource.rawValue)\"",
                found: "\"\(header.triggerSource.rawValue)\"")
        }
        guard let requestJSON = reader.value("request") else { throw .missingField(path: reader.fieldPath("request")) }
        // The reader is the event's root, "$".
        let request = try Request(json: requestJSON, path: "$.request")
        let incoming = reader.value("response")
        response = try Response(json: incoming, path: "$.response")
        arrived = Arrived(
            header: header, request: request, incomingResponse: incoming?.objectValue ?? JSONObject(),
            original: .tree(reader.object, splice: splice))
    }

    /// An event read straight from its bytes (`EventFields`): its header, its request made of the request's fields,
    /// its `response` value as it arrived, and the bytes with where that value lies. Nil when the response does not
    /// read, for the tree decoder to name the problem.
    init?(_ header: EventHeader, _ request: Request, _ response: JSONValue, _ splice: MemberSplice) {
        let incoming = response.isNull ? nil : Optional(response)
        guard let typed = try? Response(json: incoming, path: "$.response") else { return nil }
        self.response = typed
        arrived = Arrived(
            header: header, request: request, incomingResponse: incoming?.objectValue ?? JSONObject(),
            original: .bytes(splice))
    }

    /// Reads an event from UTF-8 JSON (a leading byte-order mark is allowed).
    public init(parsing bytes: some Collection<UInt8>) throws(EventDecodingError) {
        let document = try ParsedDocument(parsingEvent: Array(bytes))
        try self.init(json: document.value, splice: document.splice)
    }

    /// The whole event with the response filled in: what Cognito expects back.
    public var json: JSONValue {
        var event: JSONObject
        switch arrived.original {
        case .tree(let object, _):
            event = object
        case .bytes(let splice):
            // Bytes that `EventFields` read to their end are a JSON object.
            guard case .object(let object)? = try? JSONValue(parsing: splice.bytes) else {
                preconditionFailure("the bytes of an event read without a tree are not a JSON object")
            }
            event = object
        }
        event["response"] = .object(responseObject)
        return .object(event)
    }

    /// The response event's bytes. An event read from bytes comes back as those bytes with the `response` value
    /// replaced (compact), which costs a fraction of writing the whole event again; otherwise `json`, compact.
    public func serialized() -> [UInt8] {
        splice?.replacingValue(with: .object(responseObject)) ?? json.serialized()
    }

    /// The `response` object as it arrived, with the fields the handler set written over it.
    private var responseObject: JSONObject {
        var object = arrived.incomingResponse
        response.write(into: &object)
        return object
    }

    /// The bytes the event was read from and where its `response` value lies, when it was read from bytes with one
    /// `response` member.
    private var splice: MemberSplice? {
        switch arrived.original {
        case .tree(_, let splice): splice
        case .bytes(let splice): splice
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.json == rhs.json
    }
}

extension CognitoEvent where Response: ResponseMembers {
    /// `serialized()` with the response object written straight from the response's fields over the members that
    /// arrived, instead of built as a tree and then written: the same bytes.
    func serializedDirectly() -> [UInt8] {
        guard let splice else { return serialized() }
        return splice.replacingValue(withObject: { response.writeObject(over: arrived.incomingResponse, to: &$0) })
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
