/// How a simulated user answers one custom challenge.
public struct SimulatedAnswer: Sendable, Equatable, ExpressibleByStringLiteral {
    /// What the user types.
    public enum Choice: Sendable, Equatable {
        /// The right answer: the step's own (`ChallengeStep.expectedAnswer(publicParameters:context:)`)
        /// or else the last code delivered.
        case right
        /// An answer that is surely wrong: the right digits each changed, or `nope`.
        case wrong
        /// Exactly this text.
        case typed(String)
    }

    /// What the user types.
    public var choice: Choice
    /// How long the user takes to answer after Create, in seconds (on top of the simulator's time per call).
    public var delaySeconds: Int64

    /// An answer given `delaySeconds` after Create.
    public init(_ choice: Choice, delaySeconds: Int64 = 0) {
        self.choice = choice
        self.delaySeconds = delaySeconds
    }

    /// The right answer, at once.
    public static let right = SimulatedAnswer(.right)
    /// A wrong answer, at once.
    public static let wrong = SimulatedAnswer(.wrong)

    /// Exactly `text`, at once.
    public static func typed(_ text: String) -> SimulatedAnswer { SimulatedAnswer(.typed(text)) }

    /// Exactly the text of the literal, at once.
    public init(stringLiteral text: String) {
        self.init(.typed(text))
    }

    /// The same answer, given `seconds` later.
    public func after(seconds: Int64) -> SimulatedAnswer {
        SimulatedAnswer(choice, delaySeconds: delaySeconds + seconds)
    }
}
