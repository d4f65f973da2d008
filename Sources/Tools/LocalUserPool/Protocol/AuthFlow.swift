/// The `AuthFlow` of an InitiateAuth or AdminInitiateAuth request.
public enum AuthFlow: String, Sendable, CaseIterable {
    case customAuth = "CUSTOM_AUTH"
    case userSRPAuth = "USER_SRP_AUTH"
    case refreshTokenAuth = "REFRESH_TOKEN_AUTH"
    case refreshToken = "REFRESH_TOKEN"
    case userPasswordAuth = "USER_PASSWORD_AUTH"
    case adminUserPasswordAuth = "ADMIN_USER_PASSWORD_AUTH"
    case adminNoSRPAuth = "ADMIN_NO_SRP_AUTH"

    /// The app-client setting (`ExplicitAuthFlows`) that must be on for this flow.
    public var permission: String {
        switch self {
        case .customAuth: "ALLOW_CUSTOM_AUTH"
        case .userSRPAuth: "ALLOW_USER_SRP_AUTH"
        case .refreshTokenAuth, .refreshToken: "ALLOW_REFRESH_TOKEN_AUTH"
        case .userPasswordAuth: "ALLOW_USER_PASSWORD_AUTH"
        case .adminUserPasswordAuth, .adminNoSRPAuth: "ALLOW_ADMIN_USER_PASSWORD_AUTH"
        }
    }
}

/// The auth flows an app client allows, as `ExplicitAuthFlows` names them (`ALLOW_CUSTOM_AUTH`, …).
public struct ClientAuthFlows: Sendable, Equatable {
    /// Every name Cognito accepts in `ExplicitAuthFlows`, the legacy ones included.
    public static let knownNames: Set<String> = [
        "ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_CUSTOM_AUTH", "ALLOW_USER_PASSWORD_AUTH", "ALLOW_USER_SRP_AUTH",
        "ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_AUTH",
        "ADMIN_NO_SRP_AUTH", "CUSTOM_AUTH_FLOW_ONLY", "USER_PASSWORD_AUTH",
    ]
    /// What Cognito allows when a client has no `ExplicitAuthFlows`.
    public static let cognitoDefault = ClientAuthFlows(["ALLOW_USER_SRP_AUTH", "ALLOW_CUSTOM_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])

    /// The allowed flows, legacy names read as their `ALLOW_` equivalents.
    public let allowed: Set<String>

    public init(_ names: some Sequence<String>) {
        allowed = Set(names.map(Self.modernName))
    }

    /// Whether a request may use `flow`.
    public func permits(_ flow: AuthFlow) -> Bool {
        allowed.contains(flow.permission)
    }

    /// Sorted, for messages and the start-up line.
    public var sortedNames: [String] { allowed.sorted() }

    private static func modernName(_ name: String) -> String {
        switch name {
        case "ADMIN_NO_SRP_AUTH": "ALLOW_ADMIN_USER_PASSWORD_AUTH"
        case "CUSTOM_AUTH_FLOW_ONLY": "ALLOW_CUSTOM_AUTH"
        case "USER_PASSWORD_AUTH": "ALLOW_USER_PASSWORD_AUTH"
        default: name
        }
    }
}
