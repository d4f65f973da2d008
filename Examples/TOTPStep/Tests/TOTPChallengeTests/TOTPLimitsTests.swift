import ChallengeFlows
import CognitoTriggers
import Synchronization
import Testing
import TOTPChallenge

/// The TOTP step inside the function, with the limits across sign-ins kept (`STATE_STORE`, here in memory): each
/// code signs in once, wrong guesses from any number of sessions spend one failure budget, and each wrong guess past
/// the second makes the next answer wait longer.
@Suite("TOTP step with the limits across sign-ins")
struct TOTPLimitsTests {
    static let start: Int64 = 1_700_000_000

    /// A clock a test moves on.
    final class MovingClock: Sendable {
        let seconds = Atomic<Int64>(TOTPLimitsTests.start)
    }

    /// The three triggers for `CHALLENGE_FLOW=totp` with the limits in memory and a clock standing at `start` (or
    /// reading `clock`).
    private func handler(_ extra: [String: String] = [:], clock: MovingClock? = nil) throws -> CognitoTriggerHandler {
        let environment = [
            "CHALLENGE_FLOW": "totp", "CODE_HASH_SECRET": "totp-example-secret-0123456789-abcdefghij",
            "CODE_DELIVERY": "outbox", "STATE_STORE": "memory",
        ].merging(extra) { $1 }
        return try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: environment, steps: [TOTPStep()]),
            clock: { clock?.seconds.load(ordering: .relaxed) ?? Self.start })
    }

    /// Create for a new sign-in, then Verify of `answer`: what Cognito would be told.
    private func signInAttempt(_ handler: CognitoTriggerHandler, answer: String) throws -> Bool {
        let user = """
            "userPoolId": "us-east-1_EXAMPLE", "userName": "jane", "version": "1", "region": "us-east-1",
            "callerContext": {"awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": "example"}
            """
        let attributes = #"{"sub": "5f1c7e2a", "custom:totp_secret": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"}"#
        let create = """
            {\(user), "triggerSource": "CreateAuthChallenge_Authentication", "request": {"userAttributes": \(attributes),
            "challengeName": "CUSTOM_CHALLENGE", "session": [], "userNotFound": false}, "response": {}}
            """
        guard case .create(let created) = try handler.handle(Array(create.utf8)).event else { return false }
        let sealed = (created.response.privateChallengeParameters ?? [:]).map { "\"\($0.key)\": \"\($0.value)\"" }
        let verify = """
            {\(user), "triggerSource": "VerifyAuthChallengeResponse_Authentication", "request": {"userAttributes":
            \(attributes), "privateChallengeParameters": {\(sealed.joined(separator: ", "))}, "challengeAnswer":
            "\(answer)", "userNotFound": false}, "response": {}}
            """
        guard case .verify(let verified) = try handler.handle(Array(verify.utf8)).event else { return false }
        return verified.response.answerCorrect == true
    }

    private func code(stepsAway: Int64) -> String {
        TOTPStep.code(secret: Array("12345678901234567890".utf8), time: Self.start + stepsAway * TOTPStep.period)
    }

    @Test("a code signs in once: the same code again, or an older one, is refused; the next one is not")
    func eachCodeOnce() throws {
        let handler = try handler()
        #expect(try signInAttempt(handler, answer: code(stepsAway: 0)))
        #expect(try !signInAttempt(handler, answer: code(stepsAway: 0)), "a replay")
        #expect(try !signInAttempt(handler, answer: code(stepsAway: -1)), "older than the last used")
        #expect(try signInAttempt(handler, answer: code(stepsAway: 1)))
    }

    @Test("wrong guesses over many sessions spend one budget; past it, not even the right code signs in")
    func failureBudget() throws {
        // Without the rising delays, which would refuse the later guesses as too early instead.
        let handler = try handler(["MAX_FAILURES_PER_WINDOW": "5", "FAILURE_DELAY_BASE_SECONDS": "0"])
        for guess in 0..<5 { #expect(try !signInAttempt(handler, answer: "00000\(guess)")) }
        #expect(try !signInAttempt(handler, answer: code(stepsAway: 0)))
    }

    @Test("after two wrong guesses the next answer waits: even the right code is refused until the delay has passed")
    func risingDelay() throws {
        let clock = MovingClock()
        let handler = try handler(["FAILURE_DELAY_BASE_SECONDS": "10"], clock: clock)
        for guess in 0..<3 { #expect(try !signInAttempt(handler, answer: "00000\(guess)")) }
        // The third wrong guess set a delay of 10 s: the right code is not judged before it ends.
        #expect(try !signInAttempt(handler, answer: code(stepsAway: 0)))
        clock.seconds.store(Self.start + 11, ordering: .relaxed)
        #expect(try signInAttempt(handler, answer: code(stepsAway: 0)))
    }
}
