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

    /// Every route, for the message of a 404.
    static let catalog =
        "POST /passkeys/registration/options, POST /passkeys/registration, GET /passkeys, PATCH /passkeys/{id} and DELETE /passkeys/{id}"

    init(_ event: HTTPAPIEvent) {
        var path = Substring(event.rawPath)
        if event.stage != "$default", path.hasPrefix("/\(event.stage)/") {
            path = path.dropFirst(event.stage.utf8.count + 1)
        }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.first == "", segments.count >= 2, segments[1] == "passkeys" else {
            self = .unknown
            return
        }
        let method = event.method
        let rest = segments.dropFirst(2).map(String.init)
        if rest.isEmpty {
            self = method == "GET" ? .list : .methodNotAllowed(path: "/passkeys", allowed: "GET")
        } else if rest == ["registration"] {
            self = method == "POST" ? .registration : .methodNotAllowed(path: "/passkeys/registration", allowed: "POST")
        } else if rest == ["registration", "options"] {
            self = method == "POST"
                ? .registrationOptions : .methodNotAllowed(path: "/passkeys/registration/options", allowed: "POST")
        } else if rest.count == 1, let id = rest.first, !id.isEmpty {
            self = switch method {
            case "PATCH": .rename(id: id)
            case "DELETE": .delete(id: id)
            default: .methodNotAllowed(path: "/passkeys/{id}", allowed: "PATCH, DELETE")
            }
        } else {
            self = .unknown
        }
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
