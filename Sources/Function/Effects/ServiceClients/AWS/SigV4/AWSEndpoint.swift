import Basics

/// Where one AWS service's requests go: its regional endpoint, or a local server that speaks its API.
public struct AWSEndpoint: Sendable, Equatable {
    /// `scheme://authority`, without a trailing slash.
    public let baseURL: String
    /// The authority: host, and `:port` when one was given; the value of the `Host` header.
    public let host: String

    /// `https://<prefix>.<region>.amazonaws.com`, such as `https://email.eu-west-1.amazonaws.com`.
    public static func regional(_ prefix: String, _ region: String) -> AWSEndpoint {
        AWSEndpoint(url: "https://\(prefix).\(region).amazonaws.com")!
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

    /// The endpoint the environment variable names (a local server, say), or `fallback` when it is unset or empty.
    public init(_ variable: String, in environment: [String: String], otherwise fallback: AWSEndpoint) throws(SettingError) {
        guard let text = EnvironmentReader(environment).value(variable) else {
            self = fallback
            return
        }
        guard let endpoint = AWSEndpoint(url: text) else {
            throw SettingError(variable: variable, problem: "is \"\(text)\"; expected http(s)://host[:port] with no path")
        }
        self = endpoint
    }
}
