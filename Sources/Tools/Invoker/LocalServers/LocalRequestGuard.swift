import NIOHTTP1

/// Which requests a local server answers at all, decided from the request head before any route sees it.
///
/// A local server listens on loopback, but a web page the developer opens can still reach it: its scripts may POST
/// to `http://127.0.0.1:PORT` (a cross-site request: the browser sends it and only hides the answer), and through DNS
/// rebinding a name of the attacker's resolves to 127.0.0.1, so the page is same-origin with the server and reads
/// every answer. The guard closes both doors:
/// - the `Host` header must name the server as it is bound: `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT` or the
///   host it was asked to listen on (a rebound name never matches); HTTP/1.1 without `Host` is refused, HTTP/1.0
///   may omit it;
/// - a state-changing request (POST, PUT, PATCH, DELETE) with an `Origin` header must come from one of the server's
///   own origins (`http://` and each allowed host spelling) or an origin it was told to allow; `Origin: null`
///   (sandboxed frames, `file:` pages) is foreign. Requests without `Origin` (curl, the AWS SDKs, a bootstrap) pass:
///   browsers send `Origin` on every cross-site POST.
public struct LocalRequestGuard: Sendable, Equatable {
    /// The `Host` values answered, lower case (`localhost:9000`).
    public let allowedHosts: Set<String>
    /// The origins whose state-changing requests are answered, normalised (``normalizedOrigin(_:)``).
    public let allowedOrigins: Set<String>

    /// Why a request is not answered: the status and a one-line plain-text message.
    public struct Refusal: Sendable, Equatable {
        public let status: Int
        public let message: String
        /// The request header the refusal depends on besides the URL and `Host`, for `Vary` (`Origin`), if any.
        public let vary: String?

        public init(status: Int, message: String, vary: String? = nil) {
            self.status = status
            self.message = message
            self.vary = vary
        }
    }

    /// - Parameters:
    ///   - host: the host the server was asked to listen on (`127.0.0.1`, `localhost`, `::1`, …).
    ///   - port: the port it is bound to.
    ///   - origins: origins besides the server's own whose state-changing requests are answered (a page on another
    ///     port the developer allowed); values that are not origins are ignored.
    public init(host: String, port: Int, alsoAllowing origins: [String] = []) {
        var hosts = ["127.0.0.1", "localhost", "[::1]"]
        let literal = host.lowercased()
        let bracketed = literal.contains(":") && !literal.hasPrefix("[") ? "[\(literal)]" : literal
        if !literal.isEmpty && !hosts.contains(bracketed) { hosts.append(bracketed) }
        // Clients leave out the default port, in `Host` as in `Origin`.
        let authorities = hosts.map { "\($0):\(port)" } + (port == 80 ? hosts : [])
        allowedHosts = Set(authorities)
        allowedOrigins = Set(authorities.map { "http://\($0)" } + origins.compactMap(Self.normalizedOrigin))
    }

    /// The refusal for `request`, or nil when the server may answer it.
    public func refusal(for request: HTTPRequestHead) -> Refusal? {
        refusal(
            method: request.method.rawValue, hosts: request.headers["Host"], origins: request.headers["Origin"],
            hostIsRequired: request.version.major > 1 || (request.version.major == 1 && request.version.minor >= 1))
    }

    /// The refusal for a request with these `Host` and `Origin` header values, or nil when it may be answered.
    /// - Parameter hostIsRequired: true for HTTP/1.1 and later, where a request without `Host` is malformed.
    public func refusal(method: String, hosts: [String], origins: [String], hostIsRequired: Bool = true) -> Refusal? {
        if hosts.count > 1 || (hosts.isEmpty && hostIsRequired)
            || hosts.contains(where: { !allowedHosts.contains($0.trimmingSpaces.lowercased()) })
        {
            let given = hosts.isEmpty ? "no Host header" : "Host \(hosts.map { "\"\($0)\"" }.joined(separator: ", "))"
            return Refusal(status: 421, message: "This local server answers only Host \(servedHosts); not \(given).")
        }
        guard Self.stateChangingMethods.contains(method.uppercased()) else { return nil }
        if origins.count > 1 {
            return Refusal(
                status: 403, message: "A \(method) request may carry one Origin header, not \(origins.count).", vary: "Origin")
        }
        if let origin = origins.first, !allowedOrigins.contains(Self.normalizedOrigin(origin) ?? "") {
            return Refusal(
                status: 403,
                message: "This local server refuses \(method) requests from web pages of origin \"\(origin)\": "
                    + "only its own origin\(allowedOrigins.count == 1 ? "" : "s") \(servedOrigins) may send them.",
                vary: "Origin")
        }
        return nil
    }

    /// The methods that may change state, which need an allowed `Origin` when they carry one.
    public static let stateChangingMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// `origin` in the form browsers serialise it (`http` or `https`, a host, an optional port, no path, lower
    /// case), or nil when it is not such an origin (`*`, `null`, a URL with a path, a query or user info).
    public static func normalizedOrigin(_ origin: String) -> String? {
        let lowered = origin.lowercased()
        let scheme: String
        if lowered.hasPrefix("http://") {
            scheme = "http://"
        } else if lowered.hasPrefix("https://") {
            scheme = "https://"
        } else {
            return nil
        }
        var authority = Substring(lowered.dropFirst(scheme.count))
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ \t\\".contains($0) }) else { return nil }
        let host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || isPort(rest) else { return nil }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            guard parts.count == 1 || isPort(":" + parts[1]) else { return nil }
        }
        guard !host.isEmpty else { return nil }
        return scheme + authority
    }

    /// `:` followed by 1 to 5 digits up to 65535.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        guard text.first == ":", (1...5).contains(digits.count), digits.allSatisfy({ ("0"..."9").contains($0) }),
              let port = Int(digits)
        else { return false }
        return (1...65535).contains(port)
    }

    private var servedHosts: String { allowedHosts.sorted().joined(separator: ", ") }
    private var servedOrigins: String { allowedOrigins.sorted().joined(separator: ", ") }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
