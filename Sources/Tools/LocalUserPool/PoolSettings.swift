import Invoker

/// What the local user pool and its one app client are: ids, allowed flows, session life, user-existence policy.
public struct PoolSettings: Sendable {
    public var userPoolId: String
    public var clientId: String
    public var region: String
    /// The app client's `ExplicitAuthFlows`.
    public var flows: ClientAuthFlows
    /// PreventUserExistenceErrors: unknown users run the triggers with `userNotFound: true` and fail like a wrong
    /// answer, instead of `UserNotFoundException`.
    public var preventUserExistenceErrors: Bool
    /// How long a sign-in session string stays usable (Cognito: 3 minutes by default, 3 to 15).
    public var sessionLifetime: Duration
    /// The attributes the app client may write with UpdateUserAttributes (`WriteAttributes`); nil for all.
    public var writeAttributes: Set<String>?
    /// The attributes GetUser and ID tokens show the app client (`ReadAttributes`); nil for all. `sub` is always
    /// shown.
    public var readAttributes: Set<String>?

    public init(
        userPoolId: String = LocalDefaults.userPoolId, clientId: String = LocalDefaults.clientId,
        region: String = LocalDefaults.region, flows: ClientAuthFlows, preventUserExistenceErrors: Bool = true,
        sessionLifetime: Duration = .seconds(180), writeAttributes: Set<String>? = nil, readAttributes: Set<String>? = nil
    ) {
        self.writeAttributes = writeAttributes
        self.readAttributes = readAttributes
        self.userPoolId = userPoolId
        self.clientId = clientId
        self.region = region
        self.flows = flows
        self.preventUserExistenceErrors = preventUserExistenceErrors
        self.sessionLifetime = sessionLifetime
    }
}

extension PoolSettings {
    /// Whether the app client may read the attribute `name`.
    public func clientReads(_ name: String) -> Bool {
        name == "sub" || readAttributes?.contains(name) ?? true
    }

    /// Whether the app client may write the attribute `name`.
    public func clientWrites(_ name: String) -> Bool {
        writeAttributes?.contains(name) ?? true
    }
}
