import ChallengeFlows
import LosslessJSON

/// Trigger requests as Cognito sends them, built through the same JSON decoding as real events.
enum SimulatedRequests {
    static func define(
        session: [SessionEntry], attributes: [String: String], userNotFound: Bool
    ) throws -> DefineAuthChallengeRequest {
        try DefineAuthChallengeRequest(
            json: [
                "userAttributes": strings(attributes), "session": .array(session.map(\.json)),
                "userNotFound": .bool(userNotFound),
            ], path: "$.request")
    }

    static func create(
        session: [SessionEntry], attributes: [String: String], userNotFound: Bool, clientMetadata: [String: String]
    ) throws -> CreateAuthChallengeRequest {
        var request = JSONObject([
            ("userAttributes", strings(attributes)), ("challengeName", .string(ChallengeName.customChallenge.rawValue)),
            ("session", .array(session.map(\.json))), ("userNotFound", .bool(userNotFound)),
        ])
        if !clientMetadata.isEmpty { request["clientMetadata"] = strings(clientMetadata) }
        return try CreateAuthChallengeRequest(json: .object(request), path: "$.request")
    }

    static func verify(
        privateParameters: [String: String], answer: String, attributes: [String: String], userNotFound: Bool,
        clientMetadata: [String: String]
    ) throws -> VerifyAuthChallengeResponseRequest {
        var request = JSONObject([
            ("userAttributes", strings(attributes)), ("privateChallengeParameters", strings(privateParameters)),
            ("challengeAnswer", .string(answer)), ("userNotFound", .bool(userNotFound)),
        ])
        if !clientMetadata.isEmpty { request["clientMetadata"] = strings(clientMetadata) }
        return try VerifyAuthChallengeResponseRequest(json: .object(request), path: "$.request")
    }
}

/// An object of strings, sorted by key.
private func strings(_ map: [String: String]) -> JSONValue {
    .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
}
