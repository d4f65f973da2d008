import LosslessJSON

/// What a Lambda integration answers an HTTP API (payload 2.0): a status, headers and a JSON body.
public struct HTTPAPIResponse: Sendable, Equatable {
    /// The HTTP status, such as 201 or 404.
    public var statusCode: Int
    /// Header names in lower case; `content-type` is always `application/json` and `cache-control` `no-store` (no
    /// answer of this API, a challenge least of all, is worth keeping in a cache).
    public var headers: [String: String]
    /// The body, a JSON document; nil for none (204).
    public var body: JSONValue?

    /// A response with `body` (nil for none) and `headers` next to the JSON content type.
    public init(statusCode: Int, body: JSONValue?, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.body = body
        self.headers = headers.merging(["content-type": "application/json", "cache-control": "no-store"]) { $1 }
    }

    /// A refusal whose body is `{"message": …}`, a sentence a person can act on.
    public static func message(_ statusCode: Int, _ message: String, headers: [String: String] = [:]) -> HTTPAPIResponse {
        HTTPAPIResponse(statusCode: statusCode, body: ["message": .string(message)], headers: headers)
    }

    /// The body's `message`, for a refusal.
    public var message: String? {
        body?.objectValue?["message"]?.stringValue
    }

    /// The response as the Lambda integration returns it: `statusCode`, `headers`, `body` (the JSON as a string, empty for none) and
    /// `isBase64Encoded` false.
    public var json: JSONValue {
        .object(JSONObject([
            ("statusCode", .number(JSONNumber(statusCode))),
            ("headers", .object(JSONObject(headers.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) }))),
            ("body", .string(body?.text() ?? "")),
            ("isBase64Encoded", false),
        ]))
    }

    /// ``json``'s bytes, compact.
    public func serialized() -> [UInt8] {
        json.serialized()
    }
}
