/// Which of the API's routes a request is for, from its method and path (not the `routeKey`, which a `$default` or
/// `ANY /{proxy+}` route would leave vague). A named stage's prefix on the path is dropped.
enum Route: Equatable, CustomStringConvertible {
    case registrationOptions
    case registration
    case list
    case rename(id: String)
    case delete(id: String)
    /// A path the API serves, with a method it does not serve there.
    case methodNotAllowed(path: String, allowed: String)
    case unknown

    /// Every route the API serves, and the case a request for it is: the one list (``HTTPAPIRoute/passkeys`` is
    /// read from it).
    static let table: [(route: HTTPAPIRoute, make: @Sendable (_ parameters: [String: String]) -> Route)] = [
        (HTTPAPIRoute("POST", "/passkeys/registration/options"), { _ in .registrationOptions }),
        (HTTPAPIRoute("POST", "/passkeys/registration"), { _ in .registration }),
        (HTTPAPIRoute("GET", "/passkeys"), { _ in .list }),
        (HTTPAPIRoute("PATCH", "/passkeys/{id}"), { .rename(id: $0["id"] ?? "") }),
        (HTTPAPIRoute("DELETE", "/passkeys/{id}"), { .delete(id: $0["id"] ?? "") }),
    ]

    /// Every route, for the message of a 404: `A, B and C`.
    static let catalog: String = {
        let keys = table.map(\.route.routeKey)
        return keys.dropLast().joined(separator: ", ") + " and " + keys[keys.count - 1]
    }()

    init(_ event: HTTPAPIEvent) {
        var path = Substring(event.rawPath)
        if event.stage != "$default", path.hasPrefix("/\(event.stage)/") {
            path = path.dropFirst(event.stage.utf8.count + 1)
        }
        self.init(method: event.method, path: String(path))
    }

    /// The route of the most specific template `path` fits; when none of that template's routes has `method`, a
    /// ``methodNotAllowed(path:allowed:)`` that lists the ones it has.
    init(method: String, path: String) {
        let fitting = Self.table.compactMap { entry in
            entry.route.parameters(in: path).map { (route: entry.route, make: entry.make, parameters: $0) }
        }
        guard let template = fitting.min(by: { $0.route.parameterCount < $1.route.parameterCount })?.route.pathTemplate
        else {
            self = .unknown
            return
        }
        let routes = fitting.filter { $0.route.pathTemplate == template }
        guard let chosen = routes.first(where: { $0.route.method == method }) else {
            self = .methodNotAllowed(path: template, allowed: routes.map(\.route.method).joined(separator: ", "))
            return
        }
        self = chosen.make(chosen.parameters)
    }

    /// The route's template, for the log: no ids.
    var description: String {
        switch self {
        case .registrationOptions: "POST /passkeys/registration/options"
        case .registration: "POST /passkeys/registration"
        case .list: "GET /passkeys"
        case .rename: "PATCH /passkeys/{id}"
        case .delete: "DELETE /passkeys/{id}"
        case .methodNotAllowed(let path, _): "\(path) (method not allowed)"
        case .unknown: "unknown route"
        }
    }
}
