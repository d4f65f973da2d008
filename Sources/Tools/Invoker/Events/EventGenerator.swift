import ChallengeFlows
import LosslessJSON
import Platform
import ServiceClients

/// Builds a realistic event for any trigger at any point of a flow. Earlier custom challenges in the session are
/// issued for real by the configured triggers (in this process, codes captured rather than delivered), so the
/// metadata and private parameters are the ones a deployment with the same `CODE_HASH_SECRET` would accept.
public final class EventGenerator {
    public enum Trigger: String, Sendable, CaseIterable {
        case define, create, verify
    }

    /// Where in the flow the event sits.
    public enum Step: Sendable, Equatable {
        /// After SRP_A, before the password (flows starting with srp).
        case password
        /// The n-th custom challenge (1-based) is due; earlier ones were answered right.
        case custom(Int)
        /// Every challenge was answered right.
        case done

        /// Reads `password`, a step number, or `done`.
        public init?(parsing text: String) {
            switch text {
            case "password": self = .password
            case "done": self = .done
            default:
                guard let number = Int(text), number >= 1 else { return nil }
                self = .custom(number)
            }
        }
    }

    /// One entry of an explicit session.
    public enum SessionToken: Sendable, Equatable {
        case srp
        case password(correct: Bool)
        /// A custom challenge of the flow, issued for real, answered right or wrong.
        case custom(correct: Bool)
        /// Any other challenge, with null metadata.
        case other(ChallengeName, result: Bool)

        /// Reads `srp`, `password`, `password:false`, `right`, `wrong`, or `NAME[:true|false]`.
        public init?(parsing text: String) {
            let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
            guard let name = parts.first, !name.isEmpty else { return nil }
            let result: Bool
            switch parts.count > 1 ? parts[1].lowercased() : "true" {
            case "true": result = true
            case "false": result = false
            default: return nil
            }
            switch name.lowercased() {
            case "srp", "srp_a": self = .srp
            case "password", "password_verifier": self = .password(correct: result)
            case "right": self = .custom(correct: true)
            case "wrong": self = .custom(correct: false)
            default: self = .other(ChallengeName(rawValue: name), result: result)
            }
        }
    }

    /// A generated event and, for Verify, the answer that would be right.
    public struct Generated: Sendable {
        public let event: JSONValue
        public let rightAnswer: String?

        /// The event as JSON text, indented unless `compact`.
        public func text(compact: Bool) -> String { event.text(compact ? .compact : .pretty) }
    }

    private let transport: any TriggerTransport
    /// Codes the in-process triggers delivered; nil when the function runs in a bootstrap, whose codes go to the
    /// configured outbox.
    private let codes: CapturedCodes?
    private let configuration: LocalConfiguration
    private let identity: EventIdentity
    /// The app's `ClientMetadata`, in every event (and every Create run on the way); nil leaves it out.
    private let clientMetadata: [String: String]?
    /// In a flow with a choice (`a|b`): the position of its choose-method challenge and the method chosen there.
    private let choice: (index: Int, method: String)?

    /// - Parameters:
    ///   - method: in a flow with a choice, the step chosen at its choose-method challenge (default: the first
    ///     offered); that challenge's Verify answers it, and it goes as `ClientMetadata` `method` with that Verify
    ///     and every Create and Verify after it, as an app passes it.
    ///   - transport: where the triggers run; nil runs them in this process, keeping codes in memory.
    public init(
        configuration: LocalConfiguration, identity: EventIdentity, clientMetadata: [String: String]? = nil,
        method: String? = nil, transport: (any TriggerTransport)? = nil
    ) throws(InvokerError) {
        self.configuration = configuration
        self.identity = identity
        self.clientMetadata = clientMetadata
        let flow = configuration.flow
        if let (position, offered) = flow.choices.first {
            let names = offered.map(\.name)
            guard let chosen = method.map({ $0.lowercased() }) ?? names.first, names.contains(chosen) else {
                throw .usage("--method \(method ?? ""): the flow \(flow) offers \(names.joined(separator: ", "))")
            }
            choice = (position - 1, chosen)
        } else if let method {
            throw .usage("--method \(method): the flow \(flow) offers no choice of method")
        } else {
            choice = nil
        }
        if let transport {
            self.transport = transport
            codes = nil
        } else {
            let codes = CapturedCodes()
            self.transport = try InProcessTransport(configuration: configuration, delivery: codes)
            self.codes = codes
        }
    }

    /// The session that leads to `step` after `wrongAnswers` wrong answers to it.
    public func tokens(for step: Step, wrongAnswers: Int) throws(InvokerError) -> [SessionToken] {
        let flow = configuration.flow
        let start: [SessionToken] = flow.startsWithPassword ? [.srp, .password(correct: true)] : []
        switch step {
        case .password:
            guard flow.startsWithPassword else { throw .usage("--step password needs a flow that starts with srp (this one is \(flow))") }
            return [.srp]
        case .custom(let number):
            guard number <= flow.steps.count else {
                throw .usage("--step \(number): the flow \(flow) has \(flow.steps.count) custom step(s); use 1…\(flow.steps.count) or done")
            }
            return start + Array(repeating: .custom(correct: true), count: number - 1)
                + Array(repeating: .custom(correct: false), count: wrongAnswers)
        case .done:
            return start + Array(repeating: .custom(correct: true), count: flow.steps.count)
        }
    }

    /// The event for `trigger` after the session `tokens` describe; `answer` is Verify's `challengeAnswer`
    /// (default: the right one).
    public func generate(_ trigger: Trigger, session tokens: [SessionToken], answer: String? = nil) async throws(InvokerError) -> Generated {
        var session: [SessionEntry] = []
        for token in tokens {
            switch token {
            case .srp: session.append(SessionEntry(challengeName: .srpA, challengeResult: true))
            case .password(let correct): session.append(SessionEntry(challengeName: .passwordVerifier, challengeResult: correct))
            case .custom(let correct):
                let issued = try await create(session)
                session.append(SessionEntry(
                    challengeName: .customChallenge, challengeResult: correct, challengeMetadata: issued.response.challengeMetadata))
            case .other(let name, let result): session.append(SessionEntry(challengeName: name, challengeResult: result))
            }
        }
        switch trigger {
        case .define:
            return Generated(event: EventFactory.define(identity, session: session, clientMetadata: clientMetadata), rightAnswer: nil)
        case .create:
            return Generated(event: EventFactory.create(identity, session: session, clientMetadata: metadata(after: session)), rightAnswer: nil)
        case .verify:
            let issued = try await create(session)
            let right = try await rightAnswer(to: issued.response.publicChallengeParameters ?? [:])
            let event = EventFactory.verify(
                identity, privateChallengeParameters: issued.response.privateChallengeParameters ?? [:],
                answer: answer ?? right ?? "000000", clientMetadata: metadata(after: session, answering: true))
            return Generated(event: event, rightAnswer: right)
        }
    }

    /// The `ClientMetadata` of a Create after `session`, or of the Verify of the challenge it builds when
    /// `answering`: the app's, with `method` from the choice of method on (its Verify, and every event after it but
    /// Define's).
    private func metadata(after session: [SessionEntry], answering: Bool = false) -> [String: String]? {
        let passed = session.filter { $0.challengeName == .customChallenge && $0.challengeResult }.count
        guard let choice, passed > choice.index || (answering && passed == choice.index) else { return clientMetadata }
        return (clientMetadata ?? [:]).merging([MethodChoiceStep.metadataKey: choice.method]) { $1 }
    }

    /// Runs Create for the session, as Cognito would after Define named CUSTOM_CHALLENGE.
    private func create(_ session: [SessionEntry]) async throws(InvokerError) -> CreateAuthChallengeEvent {
        let invocation = try await transport.invoke(
            EventFactory.create(identity, session: session, clientMetadata: metadata(after: session)).serialized())
        switch invocation.outcome {
        case .response(let bytes):
            guard case .create(let event)? = try? AuthChallengeEvent(parsing: bytes) else {
                throw .functionError(type: "InvalidLambdaResponseException", message: "Create's response is not a Create event")
            }
            return event
        case .functionError(let type, let message):
            throw .usage("no custom challenge can be issued after this session: Create answered \(type): \(message)")
        case .timedOut(let seconds):
            throw .timedOut(seconds: seconds)
        case .runtimeExited(let status):
            throw .bootstrapCrashed("Runtime exited with error: \(status)")
        }
    }

    private func rightAnswer(to parameters: [String: String]) async throws(InvokerError) -> String? {
        switch parameters["challenge"] {
        // A step of the bootstrap's own: the answer it expects, if it can tell.
        case let kind? where configuration.ownSteps.contains(where: { $0.kind.rawValue == kind }):
            guard let step = configuration.ownSteps.first(where: { $0.kind.rawValue == kind }), let bootstrap = configuration.bootstrapSteps else {
                return nil
            }
            do {
                return try await bootstrap.expectedAnswer(
                    step: step.name, identity: identity, publicParameters: parameters, clientMetadata: clientMetadata ?? [:])
            } catch {
                throw .usage("the bootstrap cannot give the expected answer of the step \"\(step.name)\": \(error)")
            }
        // A delivered answer (an email or text-message code, a sign-in link's token): the one just captured.
        case let kind? where configuration.flow.allSteps.contains(where: { $0.kind.rawValue == kind && $0.deliversAnswer }):
            return codes?.latest(for: identity.userName) ?? outboxCode()
        case MethodChoiceStep.kind.rawValue?:
            return choice?.method
        case ChallengeKind.captcha.rawValue? where parameters["provider"] != nil:
            // A widget token: one the local siteverify stand-in accepts, unique so that it is not a second use.
            return configuration.usesLocalSiteverify ? "\(SiteverifyStandIn.passingToken).\(UInt64.random(in: 0...UInt64.max))" : nil
        case ChallengeKind.captcha.rawValue?:
            return configuration.captchas.first { $0.imageURL == parameters["captchaUrl"] }?.answer
        default:
            return nil
        }
    }
}

extension EventGenerator {
    /// The latest code the bootstrap delivered to the user in the local outbox files.
    private func outboxCode() -> String? {
        let paths = [configuration.outboxPath, configuration.smsOutboxPath].compactMap { $0 }
        let messages = paths.flatMap { (try? OutboxDelivery.messages(at: $0)) ?? [] }.filter { $0.userName == identity.userName }
        return messages.max { $0.sentAt < $1.sentAt }?.code
    }
}

/// Keeps delivered codes in memory instead of sending them.
final class CapturedCodes: CodeDelivery, Sendable {
    private let messages = PosixLock<[CodeMessage]>([])

    func deliver(_ message: CodeMessage) throws {
        messages.withLock { $0.append(message) }
    }

    func latest(for userName: String) -> String? {
        messages.withLock { messages in messages.last { $0.userName == userName }?.code }
    }
}
