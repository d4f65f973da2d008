/// A kind of custom challenge step.
public enum ChallengeKind: String, Sendable, CaseIterable {
    /// A one-time code sent by email.
    case emailCode = "EMAIL_CODE"
    /// An image whose text the user types back.
    case captcha = "CAPTCHA"

    /// The name used in `CHALLENGE_FLOW`.
    public var flowToken: String {
        switch self {
        case .emailCode: "email-code"
        case .captcha: "captcha"
        }
    }

    /// True for a step that only the user can pass (a code sent to the user's address); false for one that anyone
    /// can pass (a CAPTCHA proves a human is there, not which one).
    public var provesIdentity: Bool {
        switch self {
        case .emailCode: true
        case .captcha: false
        }
    }
}

/// Which challenges a sign-in passes through, in order.
///
/// Written as a `+`-separated list of steps: `srp` (Cognito's own SRP_A → PASSWORD_VERIFIER, only first), `captcha`,
/// `email-code`. The four common flows also have names: `email-code`, `srp-email-code`, `captcha`,
/// `captcha-email-code`.
public struct SignInFlow: Sendable, Equatable, CustomStringConvertible {
    /// True when the user proves the password with SRP before the custom steps.
    public let startsWithPassword: Bool
    /// The custom challenges after that, in order; never empty.
    public let steps: [ChallengeKind]

    public init(startsWithPassword: Bool, steps: [ChallengeKind]) {
        precondition(!steps.isEmpty, "a flow needs at least one custom step")
        self.startsWithPassword = startsWithPassword
        self.steps = steps
    }

    public static let namedFlows: [(name: String, flow: SignInFlow)] = [
        ("email-code", SignInFlow(startsWithPassword: false, steps: [.emailCode])),
        ("srp-email-code", SignInFlow(startsWithPassword: true, steps: [.emailCode])),
        ("captcha", SignInFlow(startsWithPassword: false, steps: [.captcha])),
        ("captcha-email-code", SignInFlow(startsWithPassword: false, steps: [.captcha, .emailCode])),
    ]

    /// Reads a flow name or a `+`-separated list of steps.
    public init(parsing specification: String) throws(ConfigurationError) {
        let text = specification.trimmingSpaces().lowercased()
        if let named = Self.namedFlows.first(where: { $0.name == text }) {
            self = named.flow
            return
        }
        let tokens = text.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        let startsWithPassword = tokens.first == "srp"
        var steps: [ChallengeKind] = []
        for token in tokens.dropFirst(startsWithPassword ? 1 : 0) {
            guard let kind = ChallengeKind.allCases.first(where: { $0.flowToken == token }) else {
                throw .invalid(
                    variable: "CHALLENGE_FLOW", value: specification,
                    expected: "one of " + Self.namedFlows.map(\.name).joined(separator: ", ")
                        + ", or steps joined by '+' from: srp (first only), captcha, email-code")
            }
            steps.append(kind)
        }
        guard !steps.isEmpty else {
            throw .invalid(
                variable: "CHALLENGE_FLOW", value: specification, expected: "at least one custom step after srp")
        }
        self.init(startsWithPassword: startsWithPassword, steps: steps)
    }

    /// True when passing the flow proves who the user is: the password (SRP) or a step such as an emailed code.
    /// A flow of CAPTCHAs alone signs in anyone who knows a user name and can solve one.
    public var provesIdentity: Bool {
        startsWithPassword || steps.contains(where: \.provesIdentity)
    }

    /// The flow written as `CHALLENGE_FLOW` accepts it, by name where it has one.
    public var description: String {
        if let named = Self.namedFlows.first(where: { $0.flow == self }) { return named.name }
        return ((startsWithPassword ? ["srp"] : []) + steps.map(\.flowToken)).joined(separator: "+")
    }
}

/// Limits that apply to every custom step.
public struct ChallengePolicy: Sendable, Equatable {
    public static let codeLengths = 6...10
    public static let attemptLimits = 1...10
    public static let validityRange = 30...900

    /// Digits in an email code.
    public let codeLength: Int
    /// Wrong answers allowed per step before the sign-in fails.
    public let maxAttempts: Int
    /// How long a code or CAPTCHA stays valid, in seconds.
    public let validitySeconds: Int

    public init(codeLength: Int = 6, maxAttempts: Int = 3, validitySeconds: Int = 180) throws(ConfigurationError) {
        guard Self.codeLengths.contains(codeLength) else {
            throw .invalid(variable: "CODE_LENGTH", value: "\(codeLength)", expected: "a whole number from 6 to 10")
        }
        guard Self.attemptLimits.contains(maxAttempts) else {
            throw .invalid(variable: "MAX_ATTEMPTS", value: "\(maxAttempts)", expected: "a whole number from 1 to 10")
        }
        guard Self.validityRange.contains(validitySeconds) else {
            throw .invalid(
                variable: "CODE_TTL_SECONDS", value: "\(validitySeconds)", expected: "a whole number from 30 to 900")
        }
        self.codeLength = codeLength
        self.maxAttempts = maxAttempts
        self.validitySeconds = validitySeconds
    }
}

/// A configuration value that cannot work, found at start-up.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    case missing(variable: String, hint: String)
    case invalid(variable: String, value: String, expected: String)
    /// The code delivery cannot work with this setting (the problem names it without repeating a secret).
    case delivery(variable: String, problem: String)
    /// A setting read by another part (CAPTCHA provider, state store): the problem is the rest of a sentence that
    /// starts with the variable's name.
    case setting(variable: String, problem: String)
    /// A value that would work but is unsafe; the reason names the risk and how to accept it where that is allowed.
    case refused(variable: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .missing(let variable, let hint): "\(variable) is not set: \(hint)"
        case .invalid(let variable, let value, let expected): "\(variable)=\"\(value)\" is not valid: expected \(expected)"
        case .delivery(let variable, let problem): "CODE_DELIVERY=ses: \(variable) \(problem)"
        case .setting(let variable, let problem): "\(variable) \(problem)"
        case .refused(let variable, let value, let reason): "\(variable)=\"\(value)\" is refused: \(reason)"
        }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
