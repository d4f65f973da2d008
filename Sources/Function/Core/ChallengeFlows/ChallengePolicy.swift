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
