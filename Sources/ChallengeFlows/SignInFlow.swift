/// Which challenges a sign-in passes through, in order.
///
/// Written as a `+`-separated list of step names: `srp` (Cognito's own SRP_A → PASSWORD_VERIFIER, only first),
/// then the names of custom steps from a ``StepRegistry`` (built in: `captcha`, `email-code`). The four common flows
/// also have names: `email-code`, `srp-email-code`, `captcha`, `captcha-email-code`.
///
/// Two flows are equal when they pass through the same steps by name, whatever the steps' settings.
public struct SignInFlow: Sendable, Equatable, CustomStringConvertible {
    /// True when the user proves the password with SRP before the custom steps.
    public let startsWithPassword: Bool
    /// The custom challenges after that, in order; never empty.
    public let steps: [any ChallengeStep]

    /// A flow of `steps`, after SRP when `startsWithPassword`.
    public init(startsWithPassword: Bool, steps: [any ChallengeStep]) {
        precondition(!steps.isEmpty, "a flow needs at least one custom step")
        self.startsWithPassword = startsWithPassword
        self.steps = steps
    }

    /// The flows that have names of their own, and the steps each name stands for.
    public static let namedFlows: [(name: String, specification: String)] = [
        ("email-code", "email-code"),
        ("srp-email-code", "srp+email-code"),
        ("captcha", "captcha"),
        ("captcha-email-code", "captcha+email-code"),
    ]

    /// Reads a flow name or a `+`-separated list of steps, looking the steps up in `registry`.
    public init(parsing specification: String, registry: StepRegistry = .builtIn()) throws(ConfigurationError) {
        var text = specification.trimmingSpaces().lowercased()
        if let named = Self.namedFlows.first(where: { $0.name == text }) {
            text = named.specification
        }
        let tokens = text.split(separator: "+", omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
        let startsWithPassword = tokens.first == "srp"
        var steps: [any ChallengeStep] = []
        for token in tokens.dropFirst(startsWithPassword ? 1 : 0) {
            guard let step = registry.step(named: token) else {
                throw .invalid(
                    variable: "CHALLENGE_FLOW", value: specification,
                    expected: "one of " + Self.namedFlows.map(\.name).joined(separator: ", ")
                        + ", or steps joined by '+' from: srp (first only), " + registry.names.joined(separator: ", "))
            }
            steps.append(step)
        }
        guard !steps.isEmpty else {
            throw .invalid(
                variable: "CHALLENGE_FLOW", value: specification, expected: "at least one custom step after srp")
        }
        self.init(startsWithPassword: startsWithPassword, steps: steps)
    }

    /// The kinds of the custom steps, in order.
    public var kinds: [ChallengeKind] { steps.map(\.kind) }

    /// True when passing the flow proves who the user is: the password (SRP) or a step such as an emailed code.
    /// A flow of CAPTCHAs alone signs in anyone who knows a user name and can solve one.
    public var provesIdentity: Bool {
        startsWithPassword || steps.contains(where: \.provesIdentity)
    }

    /// The flow written as `CHALLENGE_FLOW` accepts it, by name where it has one.
    public var description: String {
        let composition = ((startsWithPassword ? ["srp"] : []) + steps.map(\.name)).joined(separator: "+")
        return Self.namedFlows.first { $0.specification == composition }?.name ?? composition
    }

    /// Equal when both start the same way and pass through the same steps by name.
    public static func == (lhs: SignInFlow, rhs: SignInFlow) -> Bool {
        lhs.startsWithPassword == rhs.startsWithPassword && lhs.steps.map(\.name) == rhs.steps.map(\.name)
    }
}
