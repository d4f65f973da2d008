import ChallengeFlows
import CognitoSRP
import Invoker

/// What the client must answer next in a sign-in.
enum PendingChallenge: Sendable {
    /// PASSWORD_VERIFIER, run by the pool itself: the SRP server side and the `SECRET_BLOCK` it issued.
    case passwordVerifier(server: SRPServerSession, clientPublicA: String, secretBlock: [UInt8])
    /// A CUSTOM_CHALLENGE Create built: what Verify gets, and the metadata recorded on the session entry.
    case custom(privateParameters: [String: String], metadata: String?)
    /// NEW_PASSWORD_REQUIRED: the password was right, but it is temporary (FORCE_CHANGE_PASSWORD).
    case newPassword

    var challengeName: ChallengeName {
        switch self {
        case .passwordVerifier: .passwordVerifier
        case .custom: .customChallenge
        case .newPassword: .newPasswordRequired
        }
    }
}

extension ChallengeName {
    /// The challenge for a user whose password is temporary; the pool runs it itself.
    static let newPasswordRequired = ChallengeName(rawValue: "NEW_PASSWORD_REQUIRED")
}

/// Which InitiateAuth flow a sign-in runs.
enum SignInKind: Sendable, Equatable {
    /// CUSTOM_AUTH: Define decides every step.
    case customAuth
    /// USER_SRP_AUTH, USER_PASSWORD_AUTH, ADMIN_USER_PASSWORD_AUTH: the password alone; no trigger runs.
    case passwordOnly
}

/// One sign-in in progress, between two requests: who signs in, the session list the triggers see, and the
/// challenge the client was sent.
struct AuthSession: Sendable {
    let kind: SignInKind
    /// The name the client signed in with.
    let requestedName: String
    /// Nil for a user that does not exist (PreventUserExistenceErrors).
    var user: PoolUser?
    let identity: EventIdentity
    var entries: [SessionEntry]
    /// `SRP_A` from InitiateAuth, for a PASSWORD_VERIFIER step.
    let clientPublicA: String?
    var pending: PendingChallenge?

    /// The name challenges carry as `USERNAME` and `USER_ID_FOR_SRP`.
    var userName: String { user?.userName ?? requestedName }
}
