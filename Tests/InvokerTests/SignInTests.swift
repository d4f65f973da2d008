import ChallengeFlows
import Foundation
import Invoker
import LosslessJSON
import Testing

/// Scripted sign-ins through the real triggers in this process.
@Suite("Sign-in, in-process")
struct SignInTests {
    static let flows = ["email-code", "srp-email-code", "captcha", "captcha-email-code", "srp+captcha+email-code"]

    /// The right answer for every custom step of a flow.
    static func rightAnswers(_ flow: SignInFlow) -> [String] {
        flow.kinds.map { $0 == .captcha ? ScriptedAnswers.catalogAnswer : ScriptedAnswers.deliveredCode }
    }

    struct Run {
        let result: Result<SignInResult, InvokerError>
        let transcript: String
        /// The lines of the outbox file, as JSON objects.
        var outbox: [JSONObject] = []
    }

    static func signIn(
        flow: String, answers: [String], password: String? = LocalDefaults.password, user: String = LocalDefaults.userName,
        clientMetadata: [String: String] = [:], transport: ((LocalConfiguration) throws -> any TriggerTransport)? = nil
    ) async throws -> Run {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let configuration = try LocalConfiguration(
            processEnvironment: [
                "CHALLENGE_FLOW": flow, "OUTBOX_PATH": scratch.path("outbox.jsonl"), "ALLOW_CAPTCHA_ONLY_SIGN_IN": "true",
            ])
        let transport = try transport?(configuration) ?? InProcessTransport(configuration: configuration)
        let captured = CapturedConsole()
        let driver = SignInDriver(
            transport: transport,
            settings: SignInSettings(configuration: configuration, userName: user, password: password, clientMetadata: clientMetadata),
            answers: ScriptedAnswers(answers), console: captured.console)
        let result: Result<SignInResult, InvokerError>
        do {
            result = .success(try await driver.run())
        } catch {
            result = .failure(error)
        }
        await transport.shutdown()
        let outbox = try (FileManager.default.contents(atPath: scratch.path("outbox.jsonl")) ?? Data())
            .split(separator: UInt8(ascii: "\n")).compactMap { try JSONValue(parsing: Array($0)).objectValue }
        return Run(result: result, transcript: captured.output, outbox: outbox)
    }

    @Test("right answers issue tokens", arguments: flows)
    func rightAnswers(flow: String) async throws {
        let parsed = try SignInFlow(parsing: flow)
        let run = try await Self.signIn(flow: flow, answers: Self.rightAnswers(parsed))
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        #expect(result.session.filter { $0.challengeName == .customChallenge }.count == parsed.steps.count)
        #expect(result.session.allSatisfy { $0.challengeResult })
        #expect(run.transcript.contains("Signed in as jane"))
        if parsed.kinds.contains(.emailCode) {
            #expect(run.transcript.contains("delivered to j***@e***.com: "))
        }
        if parsed.startsWithPassword {
            #expect(result.session.prefix(2).map(\.challengeName) == [.srpA, .passwordVerifier])
            #expect(!run.transcript.contains(LocalDefaults.password), "the password is masked in the transcript")
        }
    }

    @Test("a wrong answer, then the right one, still issues tokens", arguments: flows)
    func wrongThenRight(flow: String) async throws {
        let parsed = try SignInFlow(parsing: flow)
        let run = try await Self.signIn(flow: flow, answers: ["wrong-1"] + Self.rightAnswers(parsed))
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        let custom = result.session.filter { $0.challengeName == .customChallenge }
        #expect(custom.map(\.challengeResult) == [false] + Array(repeating: true, count: parsed.steps.count))
        if parsed.kinds.first == .emailCode {
            #expect(run.transcript.contains("the code sent earlier is still valid"))
        }
    }

    @Test("too many wrong answers fail the authentication", arguments: flows)
    func tooManyWrongAnswers(flow: String) async throws {
        let run = try await Self.signIn(flow: flow, answers: ["nope", "nope", "nope"])
        let result = try run.result.get()
        guard case .failed(let reason) = result.outcome else {
            Issue.record("expected a failed sign-in:\n\(run.transcript)")
            return
        }
        #expect(reason?.contains("too many wrong answers") == true)
        #expect(result.session.filter { $0.challengeName == .customChallenge && !$0.challengeResult }.count == 3)
        #expect(run.transcript.contains("Authentication failed"))
    }

    @Test("a wrong password fails before any custom challenge", arguments: ["srp-email-code", "srp+captcha+email-code"])
    func wrongPassword(flow: String) async throws {
        let run = try await Self.signIn(flow: flow, answers: [ScriptedAnswers.deliveredCode], password: "Wrong-Horse-1")
        let result = try run.result.get()
        #expect(result.outcome == .failed(reason: "the password was wrong"), "\(run.transcript)")
        #expect(result.session.map(\.challengeName) == [.srpA, .passwordVerifier])
        #expect(result.session.last?.challengeResult == false)
        #expect(!run.transcript.contains("CreateAuthChallenge"))
    }

    @Test("an unknown user gets the same challenges, nothing delivered, and fails")
    func unknownUser() async throws {
        let run = try await Self.signIn(flow: "email-code", answers: ["@outbox", "123456", "654321"], user: "mallory")
        let result = try run.result.get()
        #expect(result.outcome == .failed(reason: #"too many wrong answers to "EMAIL_CODE""#), "\(run.transcript)")
        #expect(run.transcript.contains("nothing delivered"))
    }

    @Test("running out of answers ends the sign-in with its own error")
    func noMoreAnswers() async throws {
        let run = try await Self.signIn(flow: "email-code", answers: ["000000"])
        #expect(run.result.failureValue?.exitStatus == .noMoreAnswers)
        let passwordless = try await Self.signIn(flow: "srp-email-code", answers: ["@outbox"], password: nil)
        #expect(passwordless.result.failureValue?.description.contains("--password") == true)
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// CAPTCHA providers offline: with `CAPTCHA_PROVIDER` set and no `CAPTCHA_ENDPOINT`, the triggers check widget tokens
/// against the local siteverify stand-in.
@Suite("CAPTCHA provider, stood in locally")
struct LocalSiteverifyTests {
    @Test("a Turnstile flow signs in with the stand-in's passing token, after a failing one", arguments: ["turnstile", "recaptcha", "hcaptcha"])
    func providerFlowOffline(provider: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let configuration = try LocalConfiguration(processEnvironment: [
            "CHALLENGE_FLOW": "captcha-email-code", "CAPTCHA_PROVIDER": provider, "OUTBOX_PATH": scratch.path("outbox.jsonl"),
        ])
        #expect(configuration.usesLocalSiteverify)
        #expect(configuration.environment["CAPTCHA_ENDPOINT"]?.hasPrefix("http://127.0.0.1:") == true)
        let transport = try InProcessTransport(configuration: configuration)
        let captured = CapturedConsole()
        let driver = SignInDriver(
            transport: transport, settings: SignInSettings(configuration: configuration),
            answers: ScriptedAnswers([SiteverifyStandIn.failingToken, ScriptedAnswers.catalogAnswer, ScriptedAnswers.deliveredCode]),
            console: captured.console)
        let result = try await driver.run()
        await transport.shutdown()
        #expect(result.outcome == .signedIn, "\(captured.output)")
        #expect(captured.output.contains("CAPTCHA token rejected"))
        #expect(captured.output.contains("CAPTCHA token accepted by \(provider)"))
    }

    @Test("generate-event makes a Verify with a token the stand-in accepts")
    func generatedVerifyWithToken() async throws {
        let configuration = try LocalConfiguration(processEnvironment: [
            "CHALLENGE_FLOW": "captcha-email-code", "CAPTCHA_PROVIDER": "turnstile", "OUTBOX_PATH": "/dev/null",
        ])
        let identity = LocalUserTable.embedded.user(named: LocalDefaults.userName)!.identity
        let generator = try EventGenerator(configuration: configuration, identity: identity)
        let generated = try await generator.generate(.verify, session: generator.tokens(for: .custom(1), wrongAnswers: 0))
        #expect(generated.rightAnswer?.hasPrefix(SiteverifyStandIn.passingToken) == true)
        let invocation = try await InProcessTransport(configuration: configuration).invoke(generated.event.serialized())
        #expect(invocation.summary == "CAPTCHA token accepted by turnstile")
    }
}
