import ChallengeFlows
import LambdaRuntime
import LosslessJSON
import ServiceClients

/// Serves one Define, Create and Verify during init, before the first `GET /next`, through
/// ``CognitoTriggerFunction/handle(_:context:)`` (read straight from its bytes, answered, its response written and its
/// metric line made), and throws the answers and lines away.
///
/// The first real invocation would otherwise pay for what Swift and OpenSSL do once per process: instantiating
/// generic type metadata and looking up protocol conformances, faulting in the code of every path, setting up
/// OpenSSL's random generator (its first algorithm fetch, which builds OpenSSL's name map). The events go to a second handler built from
/// the same configuration whose codes go nowhere and whose limits live in memory, so nothing is sent, no table is
/// written and the real handler's state (its delivery-time model) is untouched; a CAPTCHA provider's answer is not
/// asked for. Whatever the flow makes of the events — an SRP step that Create refuses — is fine: only the work
/// matters.
enum WarmUp {
    static func run(configuration: TriggerConfiguration, metrics: SignInMetrics?) {
        guard
            let handler = try? CognitoTriggerHandler(
                configuration: configuration, delivery: DiscardedDelivery(), stateStore: MemoryStateStore())
        else { return }
        // The function's own path, its lines going nowhere: metric lines to a closure that drops them, log lines
        // below the logger's level.
        let function = CognitoTriggerFunction(triggers: handler, metrics: metrics, writeMetricLine: { _ in })
        let context = LambdaContext(
            requestID: "warm-up", deadlineMilliseconds: .max, invokedFunctionARN: "",
            logger: LambdaLogger(minimumLevel: .fatal), initDuration: .zero)
        func serve(_ bytes: [UInt8]) -> [UInt8]? { try? function.handle(bytes, context: context) }

        _ = serve(event(trigger: "DefineAuthChallenge_Authentication"))
        let created = serve(
            event(trigger: "CreateAuthChallenge_Authentication", request: ["challengeName": "CUSTOM_CHALLENGE"]))
        guard configuration.captchaProvider == nil, let created,
            case .create(let create)? = AuthChallengeEvent(readingDirectly: created),
            let sealed = create.response.privateChallengeParameters
        else { return }
        _ = serve(
            event(
                trigger: "VerifyAuthChallengeResponse_Authentication",
                request: [
                    "privateChallengeParameters": .object(JSONObject(sealed.map { ($0.key, .string($0.value)) })),
                    "challengeAnswer": "000000",
                ]))
    }

    /// The bytes of a Cognito event for a made-up user with a verified address, at the start of a sign-in.
    private static func event(trigger: String, request extra: KeyValuePairs<String, JSONValue> = [:]) -> [UInt8] {
        let attributes: JSONValue = [
            "sub": "00000000-0000-4000-8000-000000000000", "email_verified": "true", "email": "warm-up@example.invalid",
        ]
        var request = JSONObject()
        request["userAttributes"] = attributes
        request["session"] = []
        request["userNotFound"] = false
        for (key, value) in extra { request[key] = value }
        let event: JSONValue = [
            "version": "1", "region": "us-east-1", "userPoolId": "us-east-1_WARMUP", "userName": "warm-up",
            "callerContext": ["awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": "warm-up"],
            "triggerSource": .string(trigger), "request": .object(request), "response": [:],
        ]
        return event.serialized()
    }
}

/// Drops every message: the warm-up's code must not reach anyone.
private final class DiscardedDelivery: CodeDelivery {
    func deliver(_ message: CodeMessage) throws {}
}
