import ChallengeCrypto
import LosslessJSON

/// An API Gateway HTTP API request in payload format 2.0, as a Lambda integration receives it: the parts the
/// passkey API reads, with the body already decoded from base64 when API Gateway encoded it.
public struct HTTPAPIEvent: Sendable, Equatable {
    /// The route API Gateway matched, such as `POST /passkeys/registration` or `$default`.
    public var routeKey: String
    /// The request method, upper case (`requestContext.http.method`).
    public var method: String
    /// The path as the client sent it, without the query string; a named stage's prefix is still in it.
    public var rawPath: String
    /// The stage (`requestContext.stage`); `$default` when API Gateway did not say.
    public var stage: String
    /// Header names in lower case, as payload 2.0 delivers them (repeated headers arrive joined with commas).
    public var headers: [String: String]
    /// The values of the route's path variables, such as `id` for `/passkeys/{id}`.
    public var pathParameters: [String: String]
    /// The request body's bytes; empty when there was none.
    public var body: [UInt8]
    /// API Gateway's id for the request, which its access log shows too.
    public var requestID: String
    /// The claims of the token the JWT authorizer accepted, as strings; empty without an authorizer.
    public var claims: [String: String]

    /// An event made in code (tests, local tools).
    public init(
        routeKey: String, method: String, rawPath: String, stage: String = "$default", headers: [String: String] = [:],
        pathParameters: [String: String] = [:], body: [UInt8] = [], requestID: String, claims: [String: String] = [:]
    ) {
        self.routeKey = routeKey
        self.method = method
        self.rawPath = rawPath
        self.stage = stage
        self.headers = headers
        self.pathParameters = pathParameters
        self.body = body
        self.requestID = requestID
        self.claims = claims
    }

    /// True when `event` is a payload 2.0 HTTP API event: a root object with `"version": "2.0"` and a string
    /// `routeKey`. Cognito's trigger events have neither.
    public static func isHTTPAPIEvent(_ event: JSONValue) -> Bool {
        guard let root = event.objectValue else { return false }
        return root["version"]?.stringValue == "2.0" && root["routeKey"]?.stringValue != nil
    }

    /// Reads an event that ``isHTTPAPIEvent(_:)`` accepts; a field of the wrong shape is named in the error.
    public init(json: JSONValue) throws(HTTPAPIEventError) {
        guard let root = json.objectValue, root["version"]?.stringValue == "2.0" else {
            throw .malformed(path: "$.version", problem: "is not \"2.0\": only payload format 2.0 is served")
        }
        routeKey = try Self.string(root["routeKey"], path: "$.routeKey")
        let context = try Self.object(root["requestContext"], path: "$.requestContext")
        let http = try Self.object(context["http"], path: "$.requestContext.http")
        method = try Self.string(http["method"], path: "$.requestContext.http.method").uppercased()
        rawPath = if let value = root["rawPath"] {
            try Self.string(value, path: "$.rawPath")
        } else {
            try Self.string(http["path"], path: "$.requestContext.http.path")
        }
        stage = try context["stage"].map { value throws(HTTPAPIEventError) in try Self.string(value, path: "$.requestContext.stage") }
            ?? "$default"
        requestID = try context["requestId"].map { value throws(HTTPAPIEventError) in
            try Self.string(value, path: "$.requestContext.requestId")
        } ?? ""
        headers = try Self.stringMap(root["headers"], path: "$.headers", lowercasingKeys: true)
        pathParameters = try Self.stringMap(root["pathParameters"], path: "$.pathParameters", lowercasingKeys: false)
        claims = try Self.claims(in: context)
        let text = try root["body"].map { value throws(HTTPAPIEventError) in try Self.string(value, path: "$.body") } ?? ""
        switch root["isBase64Encoded"] {
        case nil, .null, .bool(false)?:
            body = Array(text.utf8)
        case .bool(true)?:
            guard let decoded = Self.decodeBase64(text) else {
                throw .malformed(path: "$.body", problem: "is not base64 although isBase64Encoded is true")
            }
            body = decoded
        case let other?:
            throw .malformed(path: "$.isBase64Encoded", problem: "is \(other.typeName), expected a boolean")
        }
    }

    /// The claims of `requestContext.authorizer.jwt.claims`. API Gateway sends them as strings; a number or a
    /// boolean is kept as its JSON text, anything else is left out.
    private static func claims(in context: JSONObject) throws(HTTPAPIEventError) -> [String: String] {
        guard let authorizer = context["authorizer"], !authorizer.isNull else { return [:] }
        let jwt = try object(authorizer, path: "$.requestContext.authorizer")["jwt"]
        guard let jwt, !jwt.isNull else { return [:] }
        guard let claims = try object(jwt, path: "$.requestContext.authorizer.jwt")["claims"], !claims.isNull else { return [:] }
        var result: [String: String] = [:]
        for (name, value) in try object(claims, path: "$.requestContext.authorizer.jwt.claims") {
            switch value {
            case .string(let text): result[name] = text
            case .number(let number): result[name] = number.literal
            case .bool(let flag): result[name] = flag ? "true" : "false"
            default: continue
            }
        }
        return result
    }

    private static func object(_ value: JSONValue?, path: String) throws(HTTPAPIEventError) -> JSONObject {
        guard let value, !value.isNull else { throw .malformed(path: path, problem: "is missing") }
        guard let object = value.objectValue else { throw .malformed(path: path, problem: "is \(value.typeName), expected an object") }
        return object
    }

    private static func string(_ value: JSONValue?, path: String) throws(HTTPAPIEventError) -> String {
        guard let value, !value.isNull else { throw .malformed(path: path, problem: "is missing") }
        guard let text = value.stringValue else { throw .malformed(path: path, problem: "is \(value.typeName), expected a string") }
        return text
    }

    private static func stringMap(_ value: JSONValue?, path: String, lowercasingKeys: Bool) throws(HTTPAPIEventError) -> [String: String] {
        guard let value, !value.isNull else { return [:] }
        var map: [String: String] = [:]
        for (key, member) in try object(value, path: path) {
            guard let text = member.stringValue else {
                throw .malformed(path: "\(path).\(key)", problem: "is \(member.typeName), expected a string")
            }
            map[lowercasingKeys ? key.lowercased() : key] = text
        }
        return map
    }

    /// Standard base64 (RFC 4648 section 4, padded), as API Gateway encodes binary bodies.
    static func decodeBase64(_ text: String) -> [UInt8]? {
        var characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, characters.last == UInt8(ascii: "=") {
            characters.removeLast()
            padding += 1
        }
        var translated: [UInt8] = []
        translated.reserveCapacity(characters.count)
        for character in characters {
            switch character {
            case UInt8(ascii: "+"): translated.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): translated.append(UInt8(ascii: "_"))
            case UInt8(ascii: "-"), UInt8(ascii: "_"): return nil
            default: translated.append(character)
            }
        }
        return Base64URL.decode(String(decoding: translated, as: UTF8.self))
    }
}

/// An HTTP API event that does not have payload 2.0's shape; the path names the field.
public enum HTTPAPIEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at `path` (such as `$.requestContext.http.method`) is missing or of the wrong type.
    case malformed(path: String, problem: String)

    public var description: String {
        switch self {
        case .malformed(let path, let problem): "the API Gateway event's \(path) \(problem)"
        }
    }
}
