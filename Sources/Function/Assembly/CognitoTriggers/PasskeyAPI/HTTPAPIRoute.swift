/// One route of the HTTP API in front of the function, as the template declares it: a method and a path whose
/// `{name}` segments are path parameters. The API itself routes with these (`Route`), and the local tools build
/// events and match requests with them.
public struct HTTPAPIRoute: Sendable, Equatable {
    public let method: String
    public let pathTemplate: String

    public init(_ method: String, _ pathTemplate: String) {
        self.method = method
        self.pathTemplate = pathTemplate
    }

    /// API Gateway's `routeKey`: `POST /passkeys/registration`.
    public var routeKey: String { "\(method) \(pathTemplate)" }

    /// The passkey API's routes (Deploy/template.yaml declares the same).
    public static let passkeys = Route.table.map(\.route)

    /// The path parameters when `method` and `path` match this route, or nil. A parameter matches one non-empty
    /// segment.
    public func match(method: String, path: String) -> [String: String]? {
        method == self.method ? parameters(in: path) : nil
    }

    /// The path parameters when `path` fits the template, whatever the method; nil when it does not.
    func parameters(in path: String) -> [String: String]? {
        let templateSegments = pathTemplate.split(separator: "/", omittingEmptySubsequences: false)
        let pathSegments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard templateSegments.count == pathSegments.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(templateSegments, pathSegments) {
            if expected.hasPrefix("{"), expected.hasSuffix("}") {
                guard !actual.isEmpty else { return nil }
                parameters[String(expected.dropFirst().dropLast())] = String(actual)
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }

    /// How many `{name}` segments the template has: of two templates a path fits, the one with fewer is the more
    /// specific, as API Gateway chooses (`/passkeys/registration` before `/passkeys/{id}`).
    var parameterCount: Int {
        pathTemplate.split(separator: "/").count { $0.hasPrefix("{") && $0.hasSuffix("}") }
    }
}
