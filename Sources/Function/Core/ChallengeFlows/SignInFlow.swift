import Basics
/// Which challenges a sign-in passes through, in order.
///
/// Written as a `+`-separated list of step names: `srp` (Cognito's own SRP_A → PASSWORD_VERIFIER, only first),
/// then the names of custom steps from a ``StepRegistry`` (built in: `captcha`, `email-code`). Names joined by `|`
/// (`passkey|email-code`) let the user choose: a ``MethodChoiceStep`` asks which, and the chosen step follows. The
/// common flows also have names: `email-code`, `srp-email-code`, `captcha`, `captcha-email-code`,
/// `passkey-or-email-code`, `email-or-sms-code`. The name of a choice may stand for it in a `+` list
/// (`srp+email-or-sms-code` is `srp+email-code|sms-code`).
///
/// Two flows are equal when they pass through the same steps by name, whatever the steps' settings.
public struct SignInFlow: Sendable, Equatable, CustomStringConvertible {
    /// True when the user proves the password with SRP before the custom steps.
    public let startsWithPassword: Bool
    /// The custom challenges after that, in order; never empty. At a position with ``choices``, the first choice.
    public let steps: [any ChallengeStep]
    /// The positions where the user chooses the step (the position after a ``MethodChoiceStep``), with the steps to
    /// choose from in the order written.
    public let choices: [Int: [any ChallengeStep]]
    /// Every step of the flow, the choices included, each kind once, in order. Listed once here: every Create and
    /// Verify looks steps up in it several times.
    public let allSteps: [any ChallengeStep]

    /// A flow of `steps`, after SRP when `startsWithPassword`, with `choices` at some positions.
    public init(startsWithPassword: Bool, steps: [any ChallengeStep], choices: [Int: [any ChallengeStep]] = [:]) {
        precondition(!steps.isEmpty, "a flow needs at least one custom step")
        self.startsWithPassword = startsWithPassword
        self.steps = steps
        self.choices = choices
        var seen: Set<ChallengeKind> = []
        allSteps = steps.indices.flatMap { choices[$0] ?? [steps[$0]] }.filter { seen.insert($0.kind).inserted }
    }

    /// The steps that may be due at position `index`: its choices, or its one step.
    public func steps(at index: Int) -> [any ChallengeStep] {
        choices[index] ?? [steps[index]]
    }

    /// The flows that have names of their own, and the steps each name stands for.
    public static let namedFlows: [(name: String, specification: String)] = [
        ("email-code", "email-code"),
        ("srp-email-code", "srp+email-code"),
        ("captcha", "captcha"),
        ("captcha-email-code", "captcha+email-code"),
        ("passkey-or-email-code", "passkey|email-code"),
        ("email-or-sms-code", "email-code|sms-code"),
    ]

    /// The choice a named flow of one choice stands for (`email-code|sms-code` for `email-or-sms-code`), else `token`.
    private static func expandingChoice(_ token: String) -> String {
        namedFlows.first { $0.name == token && $0.specification.contains("|") && !$0.specification.contains("+") }?
            .specification ?? token
    }

    /// The name of the named flow of one choice that stands for `choice` (written `a|b`), else `choice`.
    private static func namingChoice(_ choice: String) -> String {
        guard choice.contains("|") else { return choice }
        return namedFlows.first { $0.specification == choice }?.name ?? choice
    }

    /// Reads a flow name or a `+`-separated list of steps, looking the steps up in `registry`.
    public init(parsing specification: String, registry: StepRegistry = .builtIn()) throws(ConfigurationError) {
        var text = specification.trimmingWhitespace().lowercased()
        if let named = Self.namedFlows.first(where: { $0.name == text }) {
            text = named.specification
        }
        let tokens = text.split(separator: "+", omittingEmptySubsequences: false).map {
            Self.expandingChoice(String($0.trimmingWhitespace()))
        }
        let startsWithPassword = tokens.first == "srp"
        var steps: [any ChallengeStep] = []
        var choices: [Int: [any ChallengeStep]] = [:]
        for token in tokens.dropFirst(startsWithPassword ? 1 : 0) {
            var named: [any ChallengeStep] = []
            for name in token.split(separator: "|", omittingEmptySubsequences: false).map({ String($0.trimmingWhitespace()) }) {
                guard let step = registry.step(named: name) else {
                    throw .invalid(
                        variable: "CHALLENGE_FLOW", value: specification,
                        expected: "one of " + Self.namedFlows.map(\.name).joined(separator: ", ")
                            + ", or steps joined by '+' (or '|' for a choice, or a choice's name) from: srp (first only), "
                            + registry.names.joined(separator: ", "))
                }
                guard !named.contains(where: { $0.name == step.name }) else {
                    throw .invalid(
                        variable: "CHALLENGE_FLOW", value: specification, expected: "a choice between different steps")
                }
                named.append(step)
            }
            if named.count > 1 {
                guard choices.isEmpty else {
                    throw .invalid(variable: "CHALLENGE_FLOW", value: specification, expected: "at most one choice ('|') in a flow")
                }
                steps.append(MethodChoiceStep(methods: named.map(\.name)))
                choices[steps.count] = named
            }
            steps.append(named[0])
        }
        guard !steps.isEmpty else {
            throw .invalid(
                variable: "CHALLENGE_FLOW", value: specification, expected: "at least one custom step after srp")
        }
        self.init(startsWithPassword: startsWithPassword, steps: steps, choices: choices)
    }

    /// The kinds of the custom steps, in order.
    public var kinds: [ChallengeKind] { steps.map(\.kind) }

    /// True when passing the flow proves who the user is: the password (SRP) or a step such as an emailed code.
    /// A flow of CAPTCHAs alone signs in anyone who knows a user name and can solve one.
    /// A position with choices proves it only when every choice does.
    public var provesIdentity: Bool {
        startsWithPassword || steps.indices.contains { steps(at: $0).allSatisfy(\.provesIdentity) }
    }

    /// Every channel the flow's steps send messages by.
    public var deliveryChannels: Set<MessageChannel> {
        allSteps.reduce(into: []) { $0.formUnion($1.deliveryChannels) }
    }

    /// The flow written as `CHALLENGE_FLOW` accepts it, by name where it has one.
    public var description: String {
        let composition = ((startsWithPassword ? ["srp"] : []) + writtenSteps).joined(separator: "+")
        return Self.namedFlows.first { $0.specification == composition }?.name ?? composition
    }

    /// The custom steps as written: a choice as `a|b` or by its name, without the step that asks for it.
    private var writtenSteps: [String] {
        steps.indices.compactMap { index in
            if choices[index + 1] != nil, steps[index] is MethodChoiceStep { return nil }
            return Self.namingChoice(steps(at: index).map(\.name).joined(separator: "|"))
        }
    }

    /// Equal when both start the same way and pass through the same steps by name.
    public static func == (lhs: SignInFlow, rhs: SignInFlow) -> Bool {
        lhs.startsWithPassword == rhs.startsWithPassword && lhs.writtenSteps == rhs.writtenSteps
    }
}
