/// One custom challenge of a sign-in: what Create issues for it and how Verify judges the answer.
///
/// The engine does everything around a step: it reads Cognito's session to find which step is due, seals the
/// step's answer (a keyed hash bound to the user, the step and the expiry, in `challengeMetadata` and the private
/// parameters), counts wrong answers against ``ChallengePolicy/maxAttempts``, refuses answers after expiry, and
/// refuses every answer of an unknown user to a step that ``provesIdentity``. A step only says what to ask and, if
/// it wants to, how to judge the answer. Everything it needs from outside comes in a ``StepContext``.
///
/// A step of your own joins a flow through a ``StepRegistry`` under its ``name``
/// (`CHALLENGE_FLOW=srp+totp`), and is unit-tested with `SignInSimulator` from `CognitoChallengeTesting`.
public protocol ChallengeStep: Sendable {
    /// The step's name in `CHALLENGE_FLOW`, e.g. `email-code`: lower-case letters, digits and `-`.
    var name: String { get }

    /// The kind written in the step's seals and metadata, e.g. `EMAIL_CODE`.
    var kind: ChallengeKind { get }

    /// True for a step that only the user can pass (a code sent to the user, a TOTP from the user's device); false
    /// for one that anyone can pass (a CAPTCHA proves a human is there, not which one). A flow needs at least one
    /// step that proves identity, or SRP, unless the deployment explicitly allows otherwise.
    var provesIdentity: Bool { get }

    /// True for a step whose answer is a secret delivered to the user (a code): the limits across sign-ins (one
    /// live code per user, the send throttle, the failure budget) apply to it, and a Create that sends nothing
    /// takes as long as a delivery. False by default.
    var deliversAnswer: Bool { get }

    /// How the step's messages travel, so that a deployment configures a delivery for each (e.g. SNS for `.sms`).
    /// None by default.
    var deliveryChannels: Set<MessageChannel> { get }

    /// True for a step that keeps a record per user across sign-ins in the state store (a passkey step: the user's
    /// credentials and their counters). The triggers then read the user's record before Create and before Verify
    /// and hand its string fields to the step (``StepContext/userRecord``), and carry out a judgement of
    /// ``AnswerJudgement/correctUpdating(record:)`` as one conditional write; a deployment without a state store
    /// refuses a flow with such a step. False by default.
    var keepsUserRecord: Bool { get }

    /// True for a step whose right answer cannot be guessed, only made with a secret the user holds (a passkey's
    /// signature over a fresh challenge). Its answers are judged whatever the failure budgets say and count against
    /// none of them, and no step-up CAPTCHA is put in front of it: a budget defends nothing there, and one that
    /// refused answers unjudged would let anyone who knows a user name stop that user's sign-ins. False by default.
    var resistsGuessing: Bool { get }

    /// Throws when the step cannot work as configured (e.g. a CAPTCHA step without a catalog); called once, when
    /// an engine is built for `flow`. Does nothing by default.
    func checkConfiguration(in flow: SignInFlow) throws(ConfigurationError)

    /// Builds the challenge that is due: its public parameters, what to seal, and a message to deliver, if any.
    ///
    /// The engine adds `challenge` (the ``kind``) and `attemptsLeft` to the public parameters. Throw only when the
    /// challenge cannot be built at all (e.g. the random source failed): Cognito then ends the sign-in.
    func create(_ context: StepContext) throws -> StepChallenge

    /// Makes an answer comparable before it is sealed or checked against a seal, e.g. by dropping white space.
    /// By default every white-space character is dropped.
    func normalize(_ answer: String) -> String

    /// Judges an answer. The default, ``AnswerJudgement/matchSeal``, leaves it to the engine's constant-time
    /// compare of the answer's keyed hash with the seal; a step that seals a nonce judges the answer itself.
    ///
    /// Not called for an unknown user when the step ``provesIdentity``: such answers are always refused.
    func judge(_ answer: String, context: StepContext) -> AnswerJudgement

    /// The answer a user who does everything right would give to a challenge with these public parameters, when the
    /// step can tell (a CAPTCHA catalog's text, a TOTP from the user's secret); nil when only the delivered
    /// message holds it. Used by simulations and tests, never by the triggers. Nil by default.
    func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String?
}

extension ChallengeStep {
    /// Not a delivered secret.
    public var deliversAnswer: Bool { false }

    /// Sends nothing.
    public var deliveryChannels: Set<MessageChannel> { [] }

    /// Keeps no record.
    public var keepsUserRecord: Bool { false }

    /// An answer that can be guessed.
    public var resistsGuessing: Bool { false }

    /// Nothing to check.
    public func checkConfiguration(in flow: SignInFlow) throws(ConfigurationError) {}

    /// Drops every white-space character.
    public func normalize(_ answer: String) -> String {
        answer.removingWhitespace()
    }

    /// Leaves the judgement to the seal.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement { .matchSeal }

    /// Unknown.
    public func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? { nil }
}

extension String {
    /// This text without its white-space characters (those with Unicode's `White_Space` property), as answers are
    /// compared.
    ///
    /// ASCII text, as nearly every answer is, is read byte by byte: in ASCII, white space is tab, line feed, vertical
    /// tab, form feed, carriage return and space, each one byte. Text without any comes back as it is.
    func removingWhitespace() -> String {
        var text = self
        let ascii = text.withUTF8 { bytes -> String? in
            var whitespace = 0
            for byte in bytes {
                guard byte < 0x80 else { return nil }
                if Self.isASCIIWhitespace(byte) { whitespace += 1 }
            }
            guard whitespace > 0 else { return self }
            return String(unsafeUninitializedCapacity: bytes.count - whitespace) { kept in
                var count = 0
                for byte in bytes where !Self.isASCIIWhitespace(byte) {
                    kept[count] = byte
                    count += 1
                }
                return count
            }
        }
        return ascii ?? String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }

    private static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (0x09...0x0D).contains(byte)
    }
}
