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

    public init(
        userPoolId: String = LocalDefaults.userPoolId, clientId: String = LocalDefaults.clientId,
        region: String = LocalDefaults.region, flows: ClientAuthFlows, preventUserExistenceErrors: Bool = true,
        sessionLifetime: Duration = .seconds(180)
    ) {
        self.userPoolId = userPoolId
        self.clientId = clientId
        self.region = region
        self.flows = flows
        self.preventUserExistenceErrors = preventUserExistenceErrors
        self.sessionLifetime = sessionLifetime
    }
}
