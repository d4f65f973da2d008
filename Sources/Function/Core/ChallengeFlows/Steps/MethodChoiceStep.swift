/// The challenge that lets the user choose how to sign in (kind `METHOD_CHOICE`), for a flow written with choices
/// such as `passkey|email-code` (`CHALLENGE_FLOW=passkey-or-email-code`).
///
/// Cognito passes `ClientMetadata` to Create only from RespondToAuthChallenge, never from InitiateAuth, so the first
/// Create of a sign-in cannot see a choice: this challenge asks for it and delivers nothing. Its public parameter
/// `methods` lists the step names to choose from, comma-separated, the same for every user name, known or not. The
/// app answers with one of the names and passes the same name as `ClientMetadata` `method` in that call, which
/// Cognito hands to the Create that follows: the chosen step's challenge comes next. An answer that is not one of the
/// names, or that the metadata does not repeat, is wrong.
///
/// Not registered by name: a flow with choices puts it in front of them.
public struct MethodChoiceStep: ChallengeStep {
    /// The key of `ClientMetadata` that carries the choice to the next Create.
    public static let metadataKey = "method"
    /// `METHOD_CHOICE`.
    public static let kind = ChallengeKind(rawValue: "METHOD_CHOICE")!

    /// The names of the steps to choose from, in the order written.
    public let methods: [String]

    /// `choose-method`, in descriptions only.
    public var name: String { "choose-method" }
    /// `METHOD_CHOICE`.
    public var kind: ChallengeKind { Self.kind }
    /// Anyone may choose; the chosen step proves who the user is.
    public var provesIdentity: Bool { false }

    public init(methods: [String]) {
        self.methods = methods
    }

    /// `methods`, and a seal nobody can answer: the step judges the answer itself.
    public func create(_ context: StepContext) throws -> StepChallenge {
        StepChallenge(publicParameters: ["methods": methods.joined(separator: ",")], sealing: .nonce)
    }

    /// Lower case, without white space.
    public func normalize(_ answer: String) -> String {
        answer.removingWhitespace().lowercased()
    }

    /// Right when the answer names one of the methods and `ClientMetadata` `method` names the same.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        let chosen = normalize(answer)
        guard methods.contains(chosen), context.clientMetadata[Self.metadataKey].map(normalize) == chosen else { return .wrong }
        return .correct
    }

    /// The method `ClientMetadata` `method` names, when it is one of them; else the first.
    public func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? {
        context.clientMetadata[Self.metadataKey].map(normalize).flatMap { methods.contains($0) ? $0 : nil } ?? methods.first
    }
}
