import ChallengeFlows
import LosslessJSON

/// Who signs in, as the trigger events describe them.
public struct EventIdentity: Sendable, Equatable {
    public var userName: String
    /// The user's attributes (`email`, `sub`, …); empty for a user that does not exist.
    public var userAttributes: [String: String]
    /// True when the user does not exist and the pool hides that (PreventUserExistenceErrors).
    public var userNotFound: Bool
    public var userPoolId: String
    public var region: String
    public var clientId: String

    public init(
        userName: String, userAttributes: [String: String], userNotFound: Bool = false,
        userPoolId: String = LocalDefaults.userPoolId, region: String = LocalDefaults.region,
        clientId: String = LocalDefaults.clientId
    ) {
        self.userName = userName
        self.userAttributes = userAttributes
        self.userNotFound = userNotFound
        self.userPoolId = userPoolId
        self.region = region
        self.clientId = clientId
    }

    /// A confirmed user with a verified email address (and a verified phone number when given), the attributes
    /// Cognito sends for one.
    public static func confirmedUser(_ userName: String, email: String, sub: String, phoneNumber: String? = nil) -> Self {
        var attributes = ["sub": sub, "email_verified": "true", "cognito:user_status": "CONFIRMED", "email": email]
        if let phoneNumber {
            attributes["phone_number"] = phoneNumber
            attributes["phone_number_verified"] = "true"
        }
        return EventIdentity(userName: userName, userAttributes: attributes)
    }

    /// A user the pool does not have: no attributes, `userNotFound: true`.
    public static func unknownUser(_ userName: String) -> Self {
        EventIdentity(userName: userName, userAttributes: [:], userNotFound: true)
    }
}

/// Builds trigger events in the shape Cognito sends (the same as the files under Events/): the common header,
/// the trigger's request, and a response whose fields are present and null. `clientMetadata` (the app's
/// `ClientMetadata`) is in the request when given, and absent otherwise.
public enum EventFactory {
    public static func define(
        _ identity: EventIdentity, session: [SessionEntry], clientMetadata: [String: String]? = nil
    ) -> JSONValue {
        var request = JSONObject([
            ("userAttributes", attributes(identity)),
            ("session", .array(session.map(\.json))),
        ])
        if let clientMetadata { request["clientMetadata"] = stringMap(clientMetadata) }
        request["userNotFound"] = .bool(identity.userNotFound)
        return event(identity, trigger: .defineAuthChallenge, request: .object(request),
                     response: ["challengeName": nil, "issueTokens": nil, "failAuthentication": nil])
    }

    public static func create(
        _ identity: EventIdentity, session: [SessionEntry], challengeName: ChallengeName = .customChallenge,
        clientMetadata: [String: String]? = nil
    ) -> JSONValue {
        var request = JSONObject([
            ("userAttributes", attributes(identity)),
            ("challengeName", .string(challengeName.rawValue)),
            ("session", .array(session.map(\.json))),
        ])
        if let clientMetadata { request["clientMetadata"] = stringMap(clientMetadata) }
        request["userNotFound"] = .bool(identity.userNotFound)
        return event(identity, trigger: .createAuthChallenge, request: .object(request),
                     response: ["publicChallengeParameters": nil, "privateChallengeParameters": nil, "challengeMetadata": nil])
    }

    public static func verify(
        _ identity: EventIdentity, privateChallengeParameters: [String: String], answer: String,
        clientMetadata: [String: String]? = nil
    ) -> JSONValue {
        var request = JSONObject([
            ("userAttributes", attributes(identity)),
            ("privateChallengeParameters", stringMap(privateChallengeParameters)),
            ("challengeAnswer", .string(answer)),
        ])
        if let clientMetadata { request["clientMetadata"] = stringMap(clientMetadata) }
        request["userNotFound"] = .bool(identity.userNotFound)
        return event(identity, trigger: .verifyAuthChallengeResponse, request: .object(request), response: ["answerCorrect": nil])
    }

    private static func event(_ identity: EventIdentity, trigger: TriggerSource, request: JSONValue, response: JSONValue) -> JSONValue {
        [
            "version": "1",
            "region": .string(identity.region),
            "userPoolId": .string(identity.userPoolId),
            "userName": .string(identity.userName),
            "callerContext": ["awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": .string(identity.clientId)],
            "triggerSource": .string(trigger.rawValue),
            "request": request,
            "response": response,
        ]
    }

    /// Attributes in the order Cognito lists them (`sub` first), the rest sorted.
    private static func attributes(_ identity: EventIdentity) -> JSONValue {
        let order = ["sub", "email_verified", "cognito:user_status", "phone_number_verified", "phone_number", "email"]
        let known = order.compactMap { key in identity.userAttributes[key].map { (key, JSONValue.string($0)) } }
        let others = identity.userAttributes.filter { !order.contains($0.key) }.sorted { $0.key < $1.key }
            .map { ($0.key, JSONValue.string($0.value)) }
        return .object(JSONObject(known + others))
    }

    private static func stringMap(_ map: [String: String]) -> JSONValue {
        .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }
}

