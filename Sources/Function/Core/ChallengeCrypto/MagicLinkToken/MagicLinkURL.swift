import Basics
/// The sign-in link a token goes into: a URL template with `{token}` where the token belongs, such as
/// `https://app.example.com/sign-in#token={token}`.
///
/// The template must use https, except `http://localhost` and `http://127.0.0.1` (any port) for local use, and
/// must carry `{token}` after its host. Tokens are base64url, so they need no percent-encoding anywhere in a URL.
public struct MagicLinkURL: Sendable, Equatable {
    /// Where the token goes in the template.
    public static let placeholder = "{token}"
    /// The variable ``init(environment:)`` reads.
    public static let variable = "MAGIC_LINK_URL"

    /// The checked template.
    public let template: String

    /// Checks the template; throws naming what is wrong with it.
    public init(template: String) throws(MagicLinkURLError) {
        try Self.check(template)
        self.template = template
    }

    /// Reads and checks `MAGIC_LINK_URL`.
    public init(environment: [String: String]) throws(MagicLinkURLError) {
        guard let template = environment[Self.variable], !template.isEmpty else { throw .notSet }
        try self.init(template: template)
    }

    /// True when the token goes into the path or the query string, which the browser sends to the server (and so to
    /// its access logs, proxies and `Referer` headers), rather than into the fragment (`#token={token}`), which it
    /// keeps to itself.
    public var sendsTokenToServer: Bool {
        guard let fragment = template.firstIndex(of: "#") else { return true }
        return template[..<fragment].containsText(Self.placeholder)
    }

    /// The link for a token: every `{token}` replaced by it.
    public func render(token: String) -> String {
        template.replacingText(Self.placeholder, with: token)
    }

    /// Checks `template` and renders the link for `token` in one step.
    public static func render(template: String, token: String) throws(MagicLinkURLError) -> String {
        try MagicLinkURL(template: template).render(token: token)
    }

    private static let localHosts: Set<String> = ["localhost", "127.0.0.1"]

    private static func check(_ template: String) throws(MagicLinkURLError) {
        guard !template.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .invalid(template: template, problem: "contains spaces or control characters")
        }
        guard !template.containsText("\\") else {
            throw .invalid(template: template, problem: "contains a backslash, which browsers read as a slash")
        }
        let lowered = template.lowercased()
        let isHTTPS = lowered.hasPrefix("https://")
        guard isHTTPS || lowered.hasPrefix("http://") else {
            throw .invalid(template: template, problem: "is not an https:// URL")
        }
        let afterScheme = template.drop { $0 != ":" }.dropFirst(3)
        let authority = afterScheme.prefix { !"/?#".contains($0) }
        guard !authority.contains("@") else {
            throw .invalid(template: template, problem: "carries a user name or password before its host")
        }
        guard !authority.containsText(placeholder) else {
            throw .invalid(template: template, problem: "puts {token} in the host")
        }
        let host = authority.hasPrefix("[") ? authority : authority.prefix { $0 != ":" }
        guard !host.isEmpty else { throw .invalid(template: template, problem: "has no host") }
        guard isHTTPS || localHosts.contains(host.lowercased()) else {
            throw .invalid(template: template, problem: "uses plain http to \(host), which is allowed only for localhost and 127.0.0.1")
        }
        guard afterScheme.dropFirst(authority.count).containsText(placeholder) else {
            throw .invalid(template: template, problem: "has no {token} placeholder, so the link would not carry the token")
        }
    }
}

/// `MAGIC_LINK_URL` is missing or unusable.
public enum MagicLinkURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `MAGIC_LINK_URL` is unset or empty.
    case notSet
    /// The template is not a safe link template; `problem` says why.
    case invalid(template: String, problem: String)

    public var description: String {
        switch self {
        case .notSet:
            "\(MagicLinkURL.variable) is not set: name the sign-in page, such as https://app.example.com/sign-in#token={token}."
        case .invalid(let template, let problem):
            "\(MagicLinkURL.variable) \"\(template)\" \(problem)."
        }
    }
}
