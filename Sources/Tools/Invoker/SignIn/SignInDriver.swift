import ChallengeFlows
import LosslessJSON

/// Who signs in, how, and where the local services are.
public struct SignInSettings: Sendable {
    public var userName: String
    /// The password for the PASSWORD_VERIFIER step; nil asks the answer source.
    public var password: String?
    public var users: LocalUserTable
    public var flow: SignInFlow
    public var policy: ChallengePolicy
    /// Where delivered codes and sign-in links can be read; nil when they go out by email.
    public var outboxPath: String?
    /// Where texted codes can be read (usually the same file); nil when they go out through Amazon SNS, or the flow
    /// texts nothing.
    public var smsOutboxPath: String?
    /// The app's `ClientMetadata`, sent with InitiateAuth and every RespondToAuthChallenge. Cognito passes it as
    /// DESIGN.md §7 says: RespondToAuthChallenge's to Verify and to the Create that follows, InitiateAuth's to none
    /// of the three triggers; Define never gets it. Empty leaves it out of the events.
    public var clientMetadata: [String: String]
    public var captchas: [CaptchaEntry]
    /// The steps of its own the bootstrap registers (see ``LocalConfiguration/ownSteps``).
    public var ownSteps: [DescribedStep]
    /// The bootstrap to ask for their expected answers.
    public var bootstrapSteps: BootstrapSteps?
    /// A widget token the local siteverify stand-in accepts, when the CAPTCHA provider is stood in for.
    public var passingWidgetToken: String?
    /// The software authenticator that registers a passkey and answers `PASSKEY` challenges (`--authenticator`);
    /// nil asks the answer source for those answers too.
    public var passkeyBrowser: PasskeyBrowser?

    public init(
        configuration: LocalConfiguration, userName: String = LocalDefaults.userName, password: String? = nil,
        users: LocalUserTable = .embedded, clientMetadata: [String: String] = [:]
    ) {
        self.userName = userName
        self.password = password
        self.users = users
        self.clientMetadata = clientMetadata
        flow = configuration.flow
        policy = configuration.triggers.policy
        outboxPath = configuration.outboxPath
        smsOutboxPath = configuration.smsOutboxPath
        captchas = configuration.captchas
        ownSteps = configuration.ownSteps
        bootstrapSteps = configuration.bootstrapSteps
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
        var outbox = OutboxWatcher(paths: [settings.outboxPath, settings.smsOutboxPath])
        let metadata = settings.clientMetadata.isEmpty ? nil : settings.clientMetadata
        // The ClientMetadata of the client's latest call, as Cognito passes it on: none after InitiateAuth, the
        // app's after each RespondToAuthChallenge.
        var respondedMetadata: [String: String]?
        var codeInForce: String?

        printHeader(user: user)
        if let browser = settings.passkeyBrowser, !identity.userNotFound,
           settings.flow.allSteps.contains(where: { $0.kind.rawValue == Self.passkeyKind })
        {
            switch try await browser.ensureRegistered(identity, through: transport) {
            case .alreadyHeld:
                note("🔑 the software authenticator (\(browser.path)) holds a passkey of \(settings.userName)'s")
            case .registered(let id):
                note("🔑 passkey \(id) registered for \(settings.userName) through the registration API (POST /passkeys/registration/options, POST /passkeys/registration → 201), kept in \(browser.path)")
            }
        }
        if settings.flow.startsWithPassword {
            client("InitiateAuth  AuthFlow=CUSTOM_AUTH  USERNAME=\(settings.userName)  SRP_A=…  CHALLENGE_NAME=SRP_A\(clientMetadataText)")
            note("Cognito records SRP_A ✓ (the SRP exchange itself is not run locally)")
            session.append(SessionEntry(challengeName: .srpA, challengeResult: true))
        } else {
            client("InitiateAuth  AuthFlow=CUSTOM_AUTH  USERNAME=\(settings.userName)\(clientMetadataText)")
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
                respondedMetadata = metadata
            case .challenge(.customChallenge)?:
                let create = try await call(
                    .createAuthChallenge, EventFactory.create(identity, session: session, clientMetadata: respondedMetadata),
                    detail: "challengeName: CUSTOM_CHALLENGE")
                guard case .create(let challenge) = create else { preconditionFailure("call checks the trigger") }
                let parameters = challenge.response.publicChallengeParameters ?? [:]
                let question = await question(
                    for: parameters, identity: identity, clientMetadata: respondedMetadata, outbox: &outbox, codeInForce: &codeInForce)
                let answer: String
                if case .passkey(let assertion?) = question {
                    answer = assertion
                } else if let given = answers.answer(question) {
                    answer = given
                    if !answers.isInteractive { line("      \(style.paint(question.label, .bold)) \(style.paint("›", .cyan)) \(answer)") }
                } else {
                    throw .noMoreAnswers(
                        (answers as? ScriptedAnswers)?.problem ?? "no answer left for the \(question.label) (end of input or of --answers)")
                }
                // A choice of method travels as the answer and as ClientMetadata `method`: Cognito gives the next
                // Create the call's ClientMetadata, never the answer.
                let callMetadata = parameters["challenge"] == Self.methodChoiceKind
                    ? (metadata ?? [:]).merging(["method": answer]) { $1 } : metadata
                let shown = if case .passkey = question { "<AuthenticationResponseJSON, \(answer.utf8.count) bytes>" } else { answer }
                client("RespondToAuthChallenge  ANSWER=\(shown)\(Self.metadataText(callMetadata))")
                let verify = try await call(.verifyAuthChallengeResponse, EventFactory.verify(
                    identity, privateChallengeParameters: challenge.response.privateChallengeParameters ?? [:], answer: answer,
                    clientMetadata: callMetadata),
                    detail: "privateChallengeParameters from Create")
                respondedMetadata = callMetadata
                guard case .verify(let verdict) = verify else { preconditionFailure("call checks the trigger") }
                let correct = verdict.response.answerCorrect == true
                // A right code is used up; a passed CAPTCHA (a step-up in front of the code) leaves it in force.
                if correct, parameters["challenge"] != ChallengeKind.captcha.rawValue { codeInForce = nil }
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
        client("RespondToAuthChallenge  PASSWORD_CLAIM_SIGNATURE=…\(clientMetadataText)")
        line("   \(style.paint("PASSWORD_VERIFIER", .bold, .blue)) \(correct ? style.paint("✓ password correct", .green) : style.paint("✗ password wrong", .red))")
        return SessionEntry(challengeName: .passwordVerifier, challengeResult: correct)
    }

    /// What to ask for the challenge Create built, with what the local services know about its answer.
    private func question(
        for parameters: [String: String], identity: EventIdentity, clientMetadata: [String: String]?,
        outbox: inout OutboxWatcher, codeInForce: inout String?
    ) async -> Question {
        switch parameters["challenge"] {
        case Self.passkeyKind?:
            return passkeyQuestion(options: parameters["options"] ?? "{}")
        case Self.methodChoiceKind?:
            note("choose a method: \(parameters["methods"]?.split(separator: ",").joined(separator: ", ") ?? "?") (the answer, and ClientMetadata method)")
            return .custom(publicParameters: parameters)
        case let kind? where settings.ownSteps.contains(where: { $0.kind.rawValue == kind && !$0.deliversAnswer }):
            return await ownStepQuestion(kind: kind, parameters: parameters, identity: identity, clientMetadata: clientMetadata)
        case let kind? where settings.flow.allSteps.contains(where: { $0.kind.rawValue == kind && $0.deliversAnswer }):
            return deliveredAnswer(kind: kind, parameters: parameters, outbox: &outbox, codeInForce: &codeInForce)
        case ChallengeKind.captcha.rawValue? where parameters["provider"] != nil:
            let provider = parameters["provider"] ?? "?"
            let standIn = settings.passingWidgetToken.map { " (the local stand-in passes the token \"\($0)\", fails any other)" } ?? ""
            note("🧩 \(provider) widget, site key \(parameters["siteKey"] ?? "?")\(parameters["action"].map { ", action \($0)" } ?? "")\(standIn)")
            return .captcha(imageURL: "\(provider) widget", catalogAnswer: settings.passingWidgetToken)
        case ChallengeKind.captcha.rawValue?:
            let url = parameters["captchaUrl"] ?? "?"
            let embedded = LocalDefaults.captchas.contains { $0.imageURL == url } && settings.captchas == LocalDefaults.captchas
            note("🖼  CAPTCHA image \(url)\(embedded ? " (an image of the embedded development catalog: it exists nowhere; answer @captcha for its text)" : "")")
            return .captcha(imageURL: url, catalogAnswer: settings.captchas.first { $0.imageURL == url }?.answer)
        default:
            note("public challenge parameters: \(parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))")
            return .custom(publicParameters: parameters)
        }
    }

    /// A challenge of a step the bootstrap registers: its kind and public parameters, and the answer the step expects
    /// when the bootstrap can tell.
    private func ownStepQuestion(
        kind: String, parameters: [String: String], identity: EventIdentity, clientMetadata: [String: String]?
    ) async -> Question {
        let step = settings.ownSteps.first { $0.kind.rawValue == kind }
        let shown = parameters.filter { $0.key != "challenge" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        note("step \(step?.name ?? "?") (kind \(kind), the bootstrap's own) · public challenge parameters: \(shown.joined(separator: " "))")
        guard let step, let bootstrap = settings.bootstrapSteps else { return .custom(publicParameters: parameters) }
        do {
            let expected = try await bootstrap.expectedAnswer(
                step: step.name, identity: identity, publicParameters: parameters, clientMetadata: clientMetadata ?? [:])
            note(expected.map { "expected answer (the step's expectedAnswer): \(style.paint($0, .bold, .yellow))" }
                ?? "the step's expectedAnswer gives none for this challenge")
            return .custom(publicParameters: parameters, expected: expected)
        } catch {
            note("the bootstrap could not give the expected answer: \(error)")
            return .custom(publicParameters: parameters)
        }
    }

    /// A code sent by email or text message, or a sign-in link's token: found in the local outbox when it is there.
    /// Like the email code, what was delivered is shown (this is a local development tool).
    private func deliveredAnswer(
        kind: String, parameters: [String: String], outbox: inout OutboxWatcher, codeInForce: inout String?
    ) -> Question {
        let destination = parameters["destination"] ?? "?"
        let isLink = kind == Self.magicLinkKind
        let steps = settings.flow.allSteps.filter { $0.kind.rawValue == kind }
        let channel = parameters["channel"].flatMap(MessageChannel.init(rawValue:))
            ?? (steps.allSatisfy { $0.deliveryChannels == [.sms] } && !steps.isEmpty ? .sms : .email)
        let path = channel == .sms ? settings.smsOutboxPath : settings.outboxPath
        let (icon, what, message) = switch (channel, isLink) {
        case (.sms, _): ("📱", "code", "text message")
        case (.email, true): ("✉", "link", "email")
        case (.email, false): ("✉", "code", "email")
        }
        if let delivered = outbox.newMessage(for: settings.userName) {
            codeInForce = delivered.code
            let shown = isLink ? delivered.link ?? delivered.code : delivered.code
            let verb = switch (channel, isLink) {
            case (.sms, _): "texted to"
            case (.email, true): "sign-in link delivered to"
            case (.email, false): "delivered to"
            }
            note("\(icon) \(verb) \(destination): \(style.paint(shown, .bold, .yellow))  (local outbox \(path ?? ""))")
        } else if codeInForce != nil {
            note("\(icon) no new \(message): the \(what) sent earlier is still valid")
        } else if path == nil {
            note(channel == .sms
                ? "📱 sent by Amazon SNS to \(destination): read it on that phone"
                : "✉ \(isLink ? "sign-in link " : "")sent by Amazon SES to \(destination): read it from that inbox")
        } else {
            note("\(icon) nothing delivered to the local outbox")
        }
        switch (channel, isLink) {
        case (.sms, _): return .smsCode(destination: destination, delivered: codeInForce)
        case (.email, true): return .signInLink(destination: destination, delivered: codeInForce)
        case (.email, false): return .emailCode(destination: destination, delivered: codeInForce)
        }
    }

    /// The kind of the `magic-link` step, whose answer is the token of a link rather than a code.
    private static let magicLinkKind = "MAGIC_LINK"
    /// The kinds of the `passkey` step and of a flow's choice of method.
    private static let passkeyKind = "PASSKEY"
    private static let methodChoiceKind = "METHOD_CHOICE"

    /// A passkey challenge: the software authenticator's assertion for its options, when it holds a passkey they
    /// allow; otherwise the answer source is asked.
    private func passkeyQuestion(options: String) -> Question {
        guard let browser = settings.passkeyBrowser else {
            note("🔑 passkey options \(options.utf8.count) bytes (a browser answers with navigator.credentials.get; pass --authenticator FILE to answer here)")
            return .passkey(assertion: nil)
        }
        do {
            guard let assertion = try browser.assertion(forOptions: options) else {
                note("🔑 the software authenticator holds no passkey for this relying party")
                return .passkey(assertion: nil)
            }
            note("🔑 the software authenticator signs from \(browser.origin)")
            return .passkey(assertion: assertion)
        } catch {
            note("🔑 \(error)")
            return .passkey(assertion: nil)
        }
    }

    /// `  ClientMetadata={…}` for the client's calls, when the app passes any.
    private var clientMetadataText: String { Self.metadataText(settings.clientMetadata) }

    private static func metadataText(_ metadata: [String: String]?) -> String {
        guard let metadata, !metadata.isEmpty else { return "" }
        return "  ClientMetadata={" + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            .joined(separator: ", ") + "}"
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
        if let metrics = invocation?.metrics { line("   " + style.paint("metrics " + MetricsDigest.describe(metrics), .dim)) }
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
        // Step-ups admitted: the function decides whether one was due; this only explains a failure.
        let progress = FlowProgress(session: session, flow: settings.flow, policy: settings.policy, admitsStepUp: true)
        guard case .failed(let failure) = progress else { return nil }
        return failure.description
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character) -> String {
        String(repeating: pad, count: max(0, width - count)) + self
    }
}
