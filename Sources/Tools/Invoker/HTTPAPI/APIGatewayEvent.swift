import CognitoTriggers
import LosslessJSON

/// API Gateway's HTTP API event, payload format 2.0, as a JWT authorizer passes a request on: the local pool's API
/// and `sign-in`'s passkey registration build the function's events with it.
public enum APIGatewayEvent {
    /// The event for a request to `route`, with the authorizer's claims (`sub`, `username`, …) as strings.
    public static func make(
        route: HTTPAPIRoute, path: String, query: String = "", headers: [String: String] = [:], body: [UInt8] = [],
        pathParameters: [String: String] = [:], claims: [String: String], requestId: String, milliseconds: Int64
    ) -> JSONValue {
        let http = JSONObject([
            ("method", .string(route.method)), ("path", .string(path)), ("protocol", "HTTP/1.1"),
            ("sourceIp", "127.0.0.1"), ("userAgent", .string(headers["user-agent"] ?? "")),
        ])
        let jwt = JSONObject([("claims", .object(sortedObject(claims))), ("scopes", .null)])
        let context = JSONObject([
            ("accountId", "000000000000"), ("apiId", "local"), ("authorizer", .object(JSONObject([("jwt", .object(jwt))]))),
            ("domainName", .string(headers["host"] ?? "localhost")), ("domainPrefix", "local"),
            ("http", .object(http)), ("requestId", .string(requestId)), ("routeKey", .string(route.routeKey)),
            ("stage", "$default"), ("timeEpoch", .number(JSONNumber(Int(milliseconds)))),
        ])
        var event = JSONObject([
            ("version", "2.0"), ("routeKey", .string(route.routeKey)), ("rawPath", .string(path)),
            ("rawQueryString", .string(query)), ("headers", .object(sortedObject(headers))), ("requestContext", .object(context)),
        ])
        if !pathParameters.isEmpty { event["pathParameters"] = .object(sortedObject(pathParameters)) }
        if !body.isEmpty { event["body"] = .string(String(decoding: body, as: UTF8.self)) }
        event["isBase64Encoded"] = false
        return .object(event)
    }

    /// A token's claims as the JWT authorizer passes them: every value a string (numbers as written, lists as
    /// `[a b]`).
    public static func claimStrings(_ claims: JSONObject) -> [String: String] {
        var strings: [String: String] = [:]
        for (name, value) in claims { strings[name] = claimText(value) }
        return strings
    }

    private static func claimText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        case .bool(let flag): flag ? "true" : "false"
        case .array(let items): "[" + items.map(claimText).joined(separator: " ") + "]"
        default: String(decoding: value.serialized(), as: UTF8.self)
        }
    }

    private static func sortedObject(_ values: [String: String]) -> JSONObject {
        JSONObject(values.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.string($0.value)) })
    }
}
