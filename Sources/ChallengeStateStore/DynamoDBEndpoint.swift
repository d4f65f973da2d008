/// Where DynamoDB requests go: the regional endpoint, or a local server that speaks DynamoDB's JSON API.
public struct DynamoDBEndpoint: Sendable, Equatable {
    /// `scheme://authority`, without a trailing slash.
    public let baseURL: String
    /// The authority: host, and `:port` when one was given; the value of the `Host` header.
    public let host: String

    /// `https://dynamodb.<region>.amazonaws.com`.
    public static func regional(_ region: String) -> DynamoDBEndpoint {
        DynamoDBEndpoint(url: "https://dynamodb.\(region).amazonaws.com")!
    }

    /// Parses `http://host[:port]` or `https://host[:port]`, with an optional trailing slash; nil for anything else.
    public init?(url: String) {
        let lowered = url.lowercased()
        guard let scheme = ["https://", "http://"].first(where: { lowered.hasPrefix($0) }) else { return nil }
        var authority = url.dropFirst(scheme.count)
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) || $0.isNewline }) else { return nil }
        host = String(authority)
        baseURL = scheme + host
    }
}
