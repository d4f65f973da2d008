import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import LosslessJSON

/// A step a bootstrap registers, as it describes it (``StepDescription``): enough for the local tools to read a flow
/// that names it and to walk a sign-in through it. Its challenges are built and judged only in the bootstrap.
public struct DescribedStep: ChallengeStep, Equatable {
    public let name: String
    public let kind: ChallengeKind
    public let provesIdentity: Bool
    public let deliversAnswer: Bool
    public let deliveryChannels: Set<MessageChannel>
    /// True for the steps every bootstrap has (`email-code`, `captcha`, …).
    public let builtIn: Bool

    public init(
        name: String, kind: ChallengeKind, provesIdentity: Bool, deliversAnswer: Bool = false,
        deliveryChannels: Set<MessageChannel> = [], builtIn: Bool = false
    ) {
        self.name = name
        self.kind = kind
        self.provesIdentity = provesIdentity
        self.deliversAnswer = deliversAnswer
        self.deliveryChannels = deliveryChannels
        self.builtIn = builtIn
    }

    struct RunsOnlyInTheBootstrap: Error, CustomStringConvertible {
        let name: String
        var description: String { "the step \"\(name)\" runs only in its bootstrap" }
    }

    /// Never called: the bootstrap builds the challenge.
    public func create(_ context: StepContext) throws -> StepChallenge {
        throw RunsOnlyInTheBootstrap(name: name)
    }

    /// Never called: the bootstrap judges the answer.
    public func judge(_ answer: String, context: StepContext) -> AnswerJudgement {
        .refused(reason: RunsOnlyInTheBootstrap(name: name).description)
    }
}

/// Asks a built bootstrap about its steps: which it registers (`COGNITO_CHALLENGE_DESCRIBE=1`), and the answer one of
/// them expects (`COGNITO_CHALLENGE_EXPECTED_ANSWER`). Each question runs the bootstrap once, without a Runtime API;
/// it prints its answer and exits.
public struct BootstrapSteps: Sendable {
    /// The bootstrap executable.
    public let path: String
    /// The environment it is asked in (the function's; Lambda's own variables are left out).
    public let environment: [String: String]
    /// How long one question may take.
    public let timeout: Duration

    public init(path: String, environment: [String: String], timeout: Duration = .seconds(10)) {
        self.path = path
        self.environment = environment.filter { !$0.key.hasPrefix("AWS_LAMBDA_") }
        self.timeout = timeout
    }

    /// Every step the bootstrap registers, built-in ones included.
    public func describe() async throws(BootstrapQuestionError) -> [DescribedStep] {
        let object = try await ask([StepDescription.describeVariable: "1"], what: "describe its steps")
        guard let elements = object["steps"]?.arrayValue else {
            throw BootstrapQuestionError("asked to describe its steps (\(StepDescription.describeVariable)=1), it printed no \"steps\" array")
        }
        var steps: [DescribedStep] = []
        for element in elements {
            let fields = element.objectValue
            guard let name = fields?["name"]?.stringValue, let kind = fields?["kind"]?.stringValue.flatMap(ChallengeKind.init(rawValue:))
            else {
                throw BootstrapQuestionError("its step description \(element.text()) has no usable name and kind")
            }
            let channels = (fields?["deliveryChannels"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(MessageChannel.init(rawValue:)) }
            steps.append(DescribedStep(
                name: name, kind: kind, provesIdentity: fields?["provesIdentity"]?.boolValue ?? false,
                deliversAnswer: fields?["deliversAnswer"]?.boolValue ?? false, deliveryChannels: Set(channels),
                builtIn: fields?["builtIn"]?.boolValue ?? false))
        }
        return steps
    }

    /// The answer the step `name` expects to a challenge with `publicParameters` for this user now; nil when the
    /// step cannot tell.
    public func expectedAnswer(
        step name: String, identity: EventIdentity, publicParameters: [String: String], clientMetadata: [String: String]
    ) async throws(BootstrapQuestionError) -> String? {
        func strings(_ map: [String: String]) -> JSONValue {
            .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        let request = JSONValue.object(JSONObject([
            ("step", .string(name)),
            ("userName", .string(identity.userName)),
            ("userPoolId", .string(identity.userPoolId)),
            ("userAttributes", strings(identity.userAttributes)),
            ("publicParameters", strings(publicParameters)),
            ("clientMetadata", strings(clientMetadata)),
        ]))
        let answer = try await ask([StepDescription.expectedAnswerVariable: request.text()], what: "give the expected answer")
        return answer["expectedAnswer"]?.stringValue
    }

    /// Runs the bootstrap with `switches` set and reads the JSON object it prints.
    private func ask(_ switches: [String: String], what: String) async throws(BootstrapQuestionError) -> JSONObject {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("cognito-local-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path, environment: environment.merging(switches) { _, new in new }, output: .file(output))
        } catch {
            throw BootstrapQuestionError(error.description)
        }
        let timeout = self.timeout
        let termination = await withTaskGroup(of: ProcessTermination??.self) { group in
            group.addTask { .some(await child.terminated()) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .none
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let termination = termination ?? nil else {
            child.kill()
            _ = await child.terminated()
            throw BootstrapQuestionError("asked to \(what), it did not answer within \(timeout); was it built with CognitoTriggerFunction.run(steps:)?")
        }
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let object = (try? JSONValue(parsing: Array(text.utf8)))?.objectValue
        if let reason = object?["error"]?.stringValue {
            throw BootstrapQuestionError("asked to \(what), it answered: \(reason)")
        }
        guard termination.exitCode == 0, let object else {
            throw BootstrapQuestionError(
                "asked to \(what), it \(termination.exitCode == 0 ? "printed no JSON object" : "ended with \(termination)"); was it built with CognitoTriggerFunction.run(steps:)?")
        }
        return object
    }
}

/// Why a bootstrap could not answer a question about its steps.
public struct BootstrapQuestionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
