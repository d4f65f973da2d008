import CognitoEvents
import CognitoSRP
import Invoker

/// What the client must answer next in a sign-in.
enum PendingChallenge: Sendable {
    /// PASSWORD_VERIFIER, run by the pool itself: the SRP server side and the `SECRET_BLOCK` it issued.
    case passwordVerifier(server: SRPServerSession, clientPublicA: String, secretBlock: [UInt8])
    /// A CUSTOM_CHALLENGE Create built: what Verify gets, and the metadata recorded on the session entry.
    case custom(privateParameters: [String: String], metadata: String?)

    var challengeName: ChallengeName {
        switch self {
        case .passwordVerifier: .passwordVerifier
        case .custom: .customChallenge
        }
    }
}

/// Which InitiateAuth flow a sign-in runs.
enum SignInKind: Sendable, Equatable {
    /// CUSTOM_AUTH: Define decides every step.
    case customAuth
    /// USER_SRP_AUTH: the password alone; no trigger runs.
    case userSRP
}

/// One sign-in in progress, between two requests: who signs in, the session list the triggers see, and the
/// challenge the client was sent.
struct AuthSession: Sendable {
    let kind: SignInKind
    /// The name the client signed in with.
    let requestedName: String
    /// Nil for a user that does not exist (PreventUserExistenceErrors).
    let user: PoolUser?
    let identity: EventIdentity
    var entries: [SessionEntry]
    /// `SRP_A` from InitiateAuth, for a PASSWORD_VERIFIER step.
    let clientPublicA: String?
    var pending: PendingChallenge?

    /// The name challenges carry as `USERNAME` and `USER_ID_FOR_SRP`.
    var userName: String { user?.userName ?? requestedName }
}
