/// The steps a `CHALLENGE_FLOW` may name: the built-in ones and any of your own.
///
/// Names and kinds are unique in a registry, so that a flow reads the same way everywhere and a seal names one
/// step.
public struct StepRegistry: Sendable {
    /// The steps, in the order they were added.
    public let steps: [any ChallengeStep]

    /// A registry of `steps`; throws when a name or kind is not valid or is taken twice.
    public init(_ steps: [any ChallengeStep]) throws(ConfigurationError) {
        var names: Set<String> = []
        var kinds: Set<ChallengeKind> = []
        for step in steps {
            guard Self.isValidName(step.name) else {
                throw .step(
                    name: step.name,
                    problem: "the name must be lower-case letters, digits and '-', start with a letter, and not be \"srp\"")
            }
            guard !SignInFlow.namedFlows.contains(where: { $0.name == step.name && $0.specification != step.name }) else {
                throw .step(name: step.name, problem: "the name is taken by a named flow")
            }
            guard names.insert(step.name).inserted else {
                throw .step(name: step.name, problem: "another step has the same name")
            }
            guard kinds.insert(step.kind).inserted else {
                throw .step(name: step.name, problem: "another step has the same kind \"\(step.kind)\"")
            }
        }
        self.steps = steps
    }

    /// The built-in steps, `email-code` and `captcha`, configured as given.
    ///
    /// - Parameters:
    ///   - captchas: the self-hosted CAPTCHA catalog; an engine refuses a flow with a CAPTCHA step while it is
    ///     empty and no `captchaWidget` is given.
    ///   - captchaWidget: instead of a catalog, a CAPTCHA provider's widget parameters.
    ///   - requireVerifiedEmail: codes go only to addresses whose `email_verified` is `"true"`.
    public static func builtIn(
        captchas: [CaptchaEntry] = [], captchaWidget: [String: String]? = nil, requireVerifiedEmail: Bool = true
    ) -> StepRegistry {
        StepRegistry(
            checked: [
                EmailCodeStep(requireVerifiedEmail: requireVerifiedEmail),
                CaptchaStep(source: captchaWidget.map(CaptchaStep.Source.widget) ?? .catalog(captchas)),
            ])
    }

    private init(checked steps: [any ChallengeStep]) {
        self.steps = steps
    }

    /// This registry with `steps` added; throws when a name or kind is not valid or is already taken.
    public func adding(_ steps: [any ChallengeStep]) throws(ConfigurationError) -> StepRegistry {
        try StepRegistry(self.steps + steps)
    }

    /// The step named `name` in `CHALLENGE_FLOW`, if there is one.
    public func step(named name: String) -> (any ChallengeStep)? {
        steps.first { $0.name == name }
    }

    /// Every name, sorted, for messages.
    public var names: [String] { steps.map(\.name).sorted() }

    private static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first), name != "srp" else {
            return false
        }
        return bytes.allSatisfy {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "-")
        }
    }
}
