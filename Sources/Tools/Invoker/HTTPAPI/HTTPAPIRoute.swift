/// One route of the HTTP API in front of the function, as the template declares it: a method and a path whose
/// `{name}` segments are path parameters.
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
    public static let passkeys = [
        HTTPAPIRoute("POST", "/passkeys/registration/options"),
        HTTPAPIRoute("POST", "/passkeys/registration"),
        HTTPAPIRoute("GET", "/passkeys"),
        HTTPAPIRoute("PATCH", "/passkeys/{id}"),
        HTTPAPIRoute("DELETE", "/passkeys/{id}"),
    ]

    /// The path parameters when `method` and `path` match this route, or nil. A parameter matches one non-empty
    /// segment.
    public func match(method: String, path: String) -> [String: String]? {
        guard method == self.method else { return nil }
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
}
