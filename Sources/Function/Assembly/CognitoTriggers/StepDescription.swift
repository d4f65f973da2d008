import Basics
import ChallengeCrypto
import ChallengeFlows
import LosslessJSON
import Platform

/// What a bootstrap says about itself to the local tools, instead of serving invocations: the steps it registers,
/// and the answer a step expects to a challenge. Lambda never sets either switch, so a deployed function is never
/// affected; `CognitoTriggerFunction.run(steps:)` answers them before it contacts the Runtime API.
///
/// - `COGNITO_CHALLENGE_DESCRIBE=1` (or the argument `--describe`) prints the registry and exits 0:
///   `{"steps": [{"name": "totp", "kind": "TOTP", "provesIdentity": true, "deliversAnswer": false,
///   "deliveryChannels": [], "builtIn": false}, …]}`, built-in steps included.
/// - `COGNITO_CHALLENGE_EXPECTED_ANSWER=REQUEST` (or the arguments `--expected-answer REQUEST`), where `REQUEST` is
///   `{"step": "totp", "userName": "jane", "userPoolId": "…", "userAttributes": {…}, "publicParameters": {…},
///   "clientMetadata": {…}}` (all but `step` optional), prints `{"expectedAnswer": "123456"}` — the step's
///   `ChallengeStep.expectedAnswer(publicParameters:context:)` at the current time, `null` when the step cannot
///   tell — and exits 0.
///
/// Either prints `{"error": "…"}` and exits 1 when it cannot answer (a step registry that is not valid, an unknown
/// step, a request that is not JSON).
public enum StepDescription {
    /// Set to `1` to print the registry.
    public static let describeVariable = "COGNITO_CHALLENGE_DESCRIBE"
    /// Set to a request to print a step's expected answer.
    public static let expectedAnswerVariable = "COGNITO_CHALLENGE_EXPECTED_ANSWER"
    /// The argument that prints the registry.
    public static let describeArgument = "--describe"
    /// The argument, followed by a request, that prints a step's expected answer.
    public static let expectedAnswerArgument = "--expected-answer"

    /// What the process prints on standard output, and its exit status.
    public struct Reply: Sendable, Equatable {
        public let output: String
        public let status: Int32
    }

    /// Every step a bootstrap with `steps` of its own accepts in `CHALLENGE_FLOW`, built-in ones first.
    public static func registry(steps: [any ChallengeStep]) throws(ConfigurationError) -> StepRegistry {
        try StepRegistry.builtIn().adding(TriggerConfiguration.moduleSteps()).adding(steps)
    }

    /// The reply to a switch in `environment` or `arguments` (the process's, program name first); nil when neither
    /// asks for a description, and the function is to serve invocations.
    public static func reply(
        environment: [String: String], arguments: [String], steps: [any ChallengeStep], now: Int64
    ) -> Reply? {
        let options = Array(arguments.dropFirst())
        var expectedRequest = EnvironmentReader(environment).value(expectedAnswerVariable)
        if let index = options.firstIndex(of: expectedAnswerArgument) {
            guard index + 1 < options.count else { return failure("\(expectedAnswerArgument) needs a JSON request") }
            expectedRequest = options[index + 1]
        }
        let describe = options.contains(describeArgument) || (environment[describeVariable].map { !$0.isEmpty && $0 != "0" } ?? false)
        guard describe || expectedRequest != nil else { return nil }
        let registry: StepRegistry
        do {
            registry = try self.registry(steps: steps)
        } catch {
            return failure(error.description)
        }
        if let expectedRequest {
            return expectedAnswer(request: expectedRequest, registry: registry, now: now)
        }
        let builtIn = Set((try? self.registry(steps: []))?.steps.map(\.name) ?? [])
        let described = registry.steps.map { step in
            JSONValue.object(JSONObject([
                ("name", .string(step.name)),
                ("kind", .string(step.kind.rawValue)),
                ("provesIdentity", .bool(step.provesIdentity)),
                ("deliversAnswer", .bool(step.deliversAnswer)),
                ("deliveryChannels", .array(step.deliveryChannels.map(\.rawValue).sorted().map(JSONValue.string))),
                ("builtIn", .bool(builtIn.contains(step.name))),
            ]))
        }
        return Reply(output: JSONValue.object(JSONObject([("steps", .array(described))])).text(), status: 0)
    }

    private static func expectedAnswer(request text: String, registry: StepRegistry, now: Int64) -> Reply {
        guard let request = (try? JSONValue(parsing: Array(text.utf8)))?.objectValue else {
            return failure("the expected-answer request is not a JSON object")
        }
        guard let name = request["step"]?.stringValue else { return failure("the expected-answer request needs a string \"step\"") }
        guard let step = registry.step(named: name) else {
            return failure("no step is named \"\(name)\"; the steps are \(registry.names.joined(separator: ", "))")
        }
        func strings(_ key: String) -> [String: String] {
            var map: [String: String] = [:]
            for (member, value) in request[key]?.objectValue ?? JSONObject() {
                if let text = value.stringValue { map[member] = text }
            }
            return map
        }
        let userName = request["userName"]?.stringValue ?? ""
        let context = StepContext(
            user: UserIdentity(userPoolId: request["userPoolId"]?.stringValue ?? "", userName: userName),
            userAttributes: strings("userAttributes"), now: now, random: SystemRandom(),
            policy: (try? ChallengePolicy()) ?? Self.fallbackPolicy, clientMetadata: strings("clientMetadata"))
        let answer = step.expectedAnswer(publicParameters: strings("publicParameters"), context: context)
        return Reply(
            output: JSONValue.object(JSONObject([("expectedAnswer", answer.map(JSONValue.string) ?? .null)])).text(), status: 0)
    }

    private static var fallbackPolicy: ChallengePolicy {
        // The defaults are within range, so this never runs.
        try! ChallengePolicy(codeLength: 6, maxAttempts: 3, validitySeconds: 180)
    }

    private static func failure(_ reason: String) -> Reply {
        Reply(output: JSONValue.object(JSONObject([("error", .string(reason))])).text(), status: 1)
    }
}
