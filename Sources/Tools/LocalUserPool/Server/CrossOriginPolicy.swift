import Invoker

/// Which web pages may call the pool from a browser (CORS). A page open in the developer's browser must not be able
/// to call AdminGetUser or AdminSetUserPassword on a pool it was not meant for, so only the configured origins get
/// CORS headers; by default that is the pool's own origin only. The allowed request headers are a fixed list (what
/// the AWS SDKs send), never an echo of what the preflight asks for.
public struct CrossOriginPolicy: Sendable, Equatable {
    /// The origins allowed, normalised (`scheme://host[:port]`, lower case).
    public let allowedOrigins: Set<String>

    /// The request headers a page may send: those the AWS SDKs for JavaScript send to Cognito.
    public static let allowedHeaders = [
        "content-type", "x-amz-target", "x-amz-user-agent", "authorization", "x-amz-date", "x-amz-security-token",
        "amz-sdk-invocation-id", "amz-sdk-request",
    ]

    /// The response headers a page may read; the SDKs read these two.
    static let exposedHeaders = "x-amzn-RequestId, x-amzn-ErrorType"

    /// - Parameter origins: each `scheme://host[:port]` (as ``normalized(_:)`` accepts it).
    /// - Throws: ``InvalidOrigin`` for one that is not an origin.
    public init(allowing origins: [String]) throws(InvalidOrigin) {
        var allowed = Set<String>()
        for origin in origins {
            guard let normalized = Self.normalized(origin) else { throw InvalidOrigin(origin: origin) }
            allowed.insert(normalized)
        }
        allowedOrigins = allowed
    }

    /// The pool's own origin on `port`: `http://127.0.0.1:PORT` and `http://localhost:PORT`, and `http://HOST:PORT`
    /// for the address it listens on.
    public static func ownOrigin(host: String, port: Int) -> CrossOriginPolicy {
        let origins = ["127.0.0.1", "localhost", host].compactMap { normalized("http://\($0):\(port)") }
        return CrossOriginPolicy(normalizedOrigins: Set(origins))
    }

    private init(normalizedOrigins: Set<String>) {
        allowedOrigins = normalizedOrigins
    }

    /// Whether a request carrying this `Origin` header may read the answer.
    public func allows(_ origin: String?) -> Bool {
        guard let origin, let normalized = Self.normalized(origin) else { return false }
        return allowedOrigins.contains(normalized)
    }

    /// The headers every answer to a request from `origin` carries: `Vary: Origin` always (the answer depends on
    /// it), and the CORS headers only when the origin is allowed.
    func headers(origin: String?) -> [(String, String)] {
        guard let origin, allows(origin) else { return [("Vary", "Origin")] }
        return [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Expose-Headers", Self.exposedHeaders),
            ("Vary", "Origin"),
        ]
    }

    /// `origin` in the form browsers serialise it (`http` or `https`, a host, an optional port, no path, lower
    /// case), or nil when it is not such an origin (`*`, `null`, a URL with a path, a query or user info).
    public static func normalized(_ origin: String) -> String? {
        LocalRequestGuard.normalizedOrigin(origin)
    }

    /// A value given as an allowed origin that is not one.
    public struct InvalidOrigin: Error, Sendable, Equatable, CustomStringConvertible {
        public let origin: String
        public init(origin: String) { self.origin = origin }
        public var description: String {
            "\"\(origin)\" is not a web origin: give scheme://host[:port], e.g. http://localhost:5173 (no path, no \"*\")"
        }
    }
}
