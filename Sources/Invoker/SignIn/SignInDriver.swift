import ChallengeFlows
import CognitoEvents
import LosslessJSON

/// Who signs in, how, and where the local services are.
public struct SignInSettings: Sendable {
    public var userName: String
    /// The password for the PASSWORD_VERIFIER step; nil asks the answer source.
    public var password: String?
    public var users: LocalUserTable
    public var flow: SignInFlow
    public var policy: ChallengePolicy
    /// Where delivered codes can be read; nil when they go out by email.
    public var outboxPath: String?
    public var captchas: [CaptchaEntry]
    /// A widget token the local siteverify stand-in accepts, when the CAPTCHA provider is stood in for.
    public var passingWidgetToken: String?

    public init(
        configuration: LocalConfiguration, userName: String = LocalDefaults.userName, password: String? = nil,
        users: LocalUserTable = .embedded
    ) {
        self.userName = userName
        self.password = password
        self.users = users
        flow = configuration.flow
        policy = configuration.triggers.policy
        outboxPath = configuration.outboxPath
        captchas = configuration.captchas
        passingWidgetToken = configuration.usesLocalSiteverify ? SiteverifyStandIn.passingToken : nil
    }
}

/// How a sign-in ended.
public enum SignInOutcome: Sendable, Equatable {
    /// Define issued tokens.
    case signedIn
    /// Define failed the authentication; the reason, as this flow reads the session.
    case failed(reason: String?)
}

/// The end of a sign-in: its outcome and the session Cognito had built.
public struct SignInResult: Sendable, Equatable {
    public let outcome: SignInOutcome
    public let session: [SessionEntry]
    public let triggerCalls: Int
}

/// Walks a whole sign-in the way Cognito drives the three triggers (DESIGN.md §1): keeps the session list, calls
/// Define, runs the challenge it names (PASSWORD_VERIFIER locally against the user table; CUSTOM_CHALLENGE through
/// Create, the answer source and Verify), appends the result, and calls Define again until it issues tokens or
/// fails. Prints a transcript of every step. The function runs behind any ``TriggerTransport``.
public final class SignInDriver {
    /// More Define calls than any sane flow needs: a function that never decides is stopped here.
    public static let defineCallLimit = 50

    private let transport: any TriggerTransport
    private let settings: SignInSettings
    private let answers: any AnswerSource
    private let console: Console
    private var style: TerminalStyle { console.style }
    private var calls = 0

    public init(transport: any TriggerTransport, settings: SignInSettings, answers: any AnswerSource, console: Console) {
        self.transport = transport
        self.settings = settings
        self.answers = answers
        self.console = console
    }

    public func run() async throws(InvokerError) -> SignInResult {
        let user = settings.users.user(named: settings.userName)
        let identity = user?.identity ?? .unknownUser(settings.userName)
        var session: [SessionEntry] = []
        var outbox = OutboxWatcher(path: settings.outboxPath)
        var codeInForce: String?

        printHeader(user: user)
        if settings.flow.startsWithPassword {
            client("InitiateAuth  AuthFlow=CUSTOM_AUTH  USERNAME=\(settings.userName)  SRP_A=…  CHALLENGE_NAME=SRP_A")
            note("Cognito records SRP_A ✓ (the SRP exchange itself is not run locally)")
            session.append(SessionEntry(challengeName: .srpA, challengeResult: true))
        } else {
            client("InitiateAuth  AuthFlow=CUSTOM_AUTH  USERNAME=\(settings.userName)")
        }

        for _ in 0..<Self.defineCallLimit {
            let define = try await call(.defineAuthChallenge, EventFactory.define(identity, session: session),
                                        detail: "session: \(Self.describe(session))")
            guard case .define(let decision) = define else { preconditionFailure("call checks the trigger") }
            switch DefineDecision(decision.response) {
            case .issueTokens?:
                return finish(.signedIn, session: session)
            case .failAuthentication?:
                return finish(.failed(reason: failureReason(session)), session: session)
            case .challenge(.passwordVerifier)?:
                session.append(try checkPassword(user: user))
            case .challenge(.customChallenge)?:
                let create = try await call(.createAuthChallenge, EventFactory.create(identity, session: session),
                                            detail: "challengeName: CUSTOM_CHALLENGE")
                guard case .create(let challenge) = create else { preconditionFailure("call checks the trigger") }
                let parameters = challenge.response.publicChallengeParameters ?? [:]
                let question = question(for: parameters, outbox: &outbox, codeInForce: &codeInForce)
                guard let answer = answers.answer(question) else {
                    throw .noMoreAnswers("no answer left for the \(question.label) (end of input or of --answers)")
                }
                if !answers.isInteractive { line("      \(style.paint(question.label, .bold)) \(style.paint("›", .cyan)) \(answer)") }
                client("RespondToAuthChallenge  ANSWER=\(answer)")
                let verify = try await call(.verifyAuthChallengeResponse, EventFactory.verify(
                    identity, privateChallengeParameters: challenge.response.privateChallengeParameters ?? [:], answer: answer),
                    detail: "privateChallengeParameters from Create")
                guard case .verify(let verdict) = verify else { preconditionFailure("call checks the trigger") }
                let correct = verdict.response.answerCorrect == true
                if correct { codeInForce = nil }
                session.append(SessionEntry(
                    challengeName: .customChallenge, challengeResult: correct, challengeMetadata: challenge.response.challengeMetadata))
            case .challenge, nil:
                throw .functionError(
                    type: "InvalidLambdaResponseException",
                    message: "Define answered challengeName \(decision.response.challengeName?.rawValue ?? "null") with neither issueTokens nor failAuthentication; cognito-local runs PASSWORD_VERIFIER and CUSTOM_CHALLENGE")
            }
        }
        throw .functionError(
            type: "InvalidLambdaResponseException",
            message: "Define neither issued tokens nor failed after \(Self.defineCallLimit) calls")
    }

    // MARK: Steps

    /// Invokes one trigger and prints the call; a function error, timeout or crash ends the sign-in as it does in
    /// Cognito (UserLambdaValidationException).
    private func call(_ trigger: TriggerSource, _ event: JSONValue, detail: String) async throws(InvokerError) -> AuthChallengeEvent {
        calls += 1
        line("\(style.paint(String(calls).leftPadded(to: 2, with: " "), .dim)) \(style.paint(trigger.shortName, .bold, .blue))  \(style.paint(detail, .dim))")
        let (invocation, outcome) = await TriggerCall(transport: transport).call(trigger, event)
        let timing = invocation.map { style.paint("(\(LambdaFormat.milliseconds($0.duration)) ms)", .dim) } ?? ""
        switch outcome {
        case .success(let response):
            let decision = invocation?.summary ?? ResponseSummary.describe(response)
            result("→ \(decision) \(timing)", Self.isFailure(response) ? .red : .green)
            report(invocation)
            return response
        case .failure(let failure):
            switch failure {
            case .functionError(_, let type, let message):
                result("✘ \(type): \(message) \(timing)", .red)
                report(invocation)
                note("Cognito ends the sign-in with UserLambdaValidationException")
            case .invalidResponse(_, let reason):
                result("✘ \(reason)", .red)
            case .timedOut(_, let seconds):
                result("✘ Task timed out after \(LambdaFormat.seconds(seconds)) seconds", .red)
                report(invocation)
            case .runtimeExited(_, let status):
                result("✘ Runtime exited with error: \(status)", .red)
                report(invocation)
            case .cannotRun:
                break
            }
            throw failure.invokerError
        }
    }

    private func checkPassword(user: LocalUser?) throws(InvokerError) -> SessionEntry {
        note("Cognito runs PASSWORD_VERIFIER itself; here the password is checked against the local user table")
        guard let password = settings.password ?? answers.answer(.password(userName: settings.userName)) else {
            throw .noMoreAnswers("the flow \(settings.flow) checks a password: pass --password")
        }
        let correct = user.map { $0.password == password } ?? false
        if !answers.isInteractive || settings.password != nil {
            line("      \(style.paint("password", .bold)) \(style.paint("›", .cyan)) \(String(repeating: "•", count: password.count))")
        }
        client("RespondToAuthChallenge  PASSWORD_CLAIM_SIGNATURE=…")
        line("   \(style.paint("PASSWORD_VERIFIER", .bold, .blue)) \(correct ? style.paint("✓ password correct", .green) : style.paint("✗ password wrong", .red))")
        return SessionEntry(challengeName: .passwordVerifier, challengeResult: correct)
    }

    /// What to ask for the challenge Create built, with what the local services know about its answer.
    private func question(for parameters: [String: String], outbox: inout OutboxWatcher, codeInForce: inout String?) -> Question {
        switch parameters["challenge"] {
        case ChallengeKind.emailCode.rawValue?:
            let destination = parameters["destination"] ?? "?"
            if let code = outbox.newCode(for: settings.userName) {
                codeInForce = code
                note("✉ delivered to \(destination): \(style.paint(code, .bold, .yellow))  (local outbox \(settings.outboxPath ?? ""))")
            } else if codeInForce != nil {
                note("✉ no new email: the code sent earlier is still valid")
            } else if settings.outboxPath == nil {
                note("✉ sent by Amazon SES to \(destination): read it from that inbox")
            } else {
                note("✉ nothing delivered to the local outbox")
            }
            return .emailCode(destination: destination, delivered: codeInForce)
        case ChallengeKind.captcha.rawValue? where parameters["provider"] != nil:
            let provider = parameters["provider"] ?? "?"
            let standIn = settings.passingWidgetToken.map { " (the local stand-in passes the token \"\($0)\", fails any other)" } ?? ""
            note("🧩 \(provider) widget, site key \(parameters["siteKey"] ?? "?")\(parameters["action"].map { ", action \($0)" } ?? "")\(standIn)")
            return .captcha(imageURL: "\(provider) widget", catalogAnswer: settings.passingWidgetToken)
        case ChallengeKind.captcha.rawValue?:
            let url = parameters["captchaUrl"] ?? "?"
            note("🖼  CAPTCHA image \(url)")
            return .captcha(imageURL: url, catalogAnswer: settings.captchas.first { $0.imageURL == url }?.answer)
        default:
            note("public challenge parameters: \(parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
            return .custom(publicParameters: parameters)
        }
    }

    private func finish(_ outcome: SignInOutcome, session: [SessionEntry]) -> SignInResult {
        line("")
        switch outcome {
        case .signedIn:
            line(style.paint("✔ Signed in as \(settings.userName): Cognito returns the ID, access and refresh tokens.", .bold, .green))
        case .failed(let reason):
            let why = reason.map { " (\($0))" } ?? ""
            line(style.paint("✘ Authentication failed\(why): Cognito answers NotAuthorizedException \"Incorrect username or password.\"", .bold, .red))
        }
        return SignInResult(outcome: outcome, session: session, triggerCalls: calls)
    }

    // MARK: Transcript

    private func printHeader(user: LocalUser?) {
        let who = user.map { "\($0.userName) <\($0.email)>" } ?? "\(settings.userName) (not in the user table: userNotFound)"
        line(style.paint("Sign-in", .bold) + "  user \(who) · flow \(settings.flow) · triggers \(transport.label)")
    }

    private func line(_ text: String) { console.output(text) }
    private func note(_ text: String) { line("      " + style.paint(text, .dim)) }
    private func result(_ text: String, _ colour: TerminalStyle.Colour) { line("   " + style.paint(text, colour)) }
    private func client(_ text: String) { line("   " + style.paint("client ⇢ ", .magenta) + text) }

    private func report(_ invocation: Invocation?) {
        if let report = invocation?.report { line("   " + style.paint(report.line, .dim)) }
    }

    static func describe(_ session: [SessionEntry]) -> String {
        guard !session.isEmpty else { return "[]" }
        return "[" + session.map { entry in
            let kind = entry.challengeMetadata?.split(separator: ":").first.map { "(\($0))" } ?? ""
            return "\(entry.challengeName)\(kind) \(entry.challengeResult ? "✓" : "✗")"
        }.joined(separator: ", ") + "]"
    }

    private static func isFailure(_ event: AuthChallengeEvent) -> Bool {
        switch event {
        case .define(let define): define.response.failAuthentication == true
        case .verify(let verify): verify.response.answerCorrect != true
        case .create: false
        }
    }

    /// Why the configured flow fails this session, if it does.
    private func failureReason(_ session: [SessionEntry]) -> String? {
        guard case .failed(let failure) = FlowProgress(session: session, flow: settings.flow, policy: settings.policy) else { return nil }
        return failure.description
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character) -> String {
        String(repeating: pad, count: max(0, width - count)) + self
    }
}
