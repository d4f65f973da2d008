import LosslessJSON

/// Verify Auth Challenge Response: judges the user's answer.
public typealias VerifyAuthChallengeResponseEvent =
    CognitoEvent<VerifyAuthChallengeResponseRequest, VerifyAuthChallengeResponseResponse>

public struct VerifyAuthChallengeResponseRequest: TriggerRequest {
    public static let triggerSource = TriggerSource.verifyAuthChallengeResponse

    public var userAttributes: [String: String]
    /// What Create put in `privateChallengeParameters`.
    public var privateChallengeParameters: [String: String]
    /// The user's answer, as the client sent it.
    public var challengeAnswer: String
    public var clientMetadata: [String: String]?
    public var userNotFound: Bool

    public init(json: JSONValue, path: String) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: path)
        userAttributes = try reader.optionalStringMap("userAttributes") ?? [:]
        guard let privateParameters = try reader.optionalStringMap("privateChallengeParameters") else {
            throw .missingField(path: reader.fieldPath("privateChallengeParameters"))
        }
        privateChallengeParameters = privateParameters
        challengeAnswer = try reader.string("challengeAnswer")
        clientMetadata = try reader.optionalStringMap("clientMetadata")
        userNotFound = try reader.optionalBool("userNotFound") ?? false
    }

    /// The request from fields read straight from the bytes, defaulted as `init(json:path:)` defaults them; nil
    /// without `privateChallengeParameters` or `challengeAnswer`.
    init?(_ fields: borrowing RequestFields) {
        guard let privateParameters = fields.privateChallengeParameters, let answer = fields.challengeAnswer else {
            return nil
        }
        userAttributes = fields.userAttributes ?? [:]
        privateChallengeParameters = privateParameters
        challengeAnswer = answer
        clientMetadata = fields.clientMetadata
        userNotFound = fields.userNotFound ?? false
    }
}

public struct VerifyAuthChallengeResponseResponse: TriggerResponse {
    public var answerCorrect: Bool?

    public init(answerCorrect: Bool? = nil) {
        self.answerCorrect = answerCorrect
    }

    public init(json: JSONValue?, path: String) throws(EventDecodingError) {
        guard let json else { return }
        answerCorrect = try FieldReader(json, path: path).optionalBool("answerCorrect")
    }

    public func write(into object: inout JSONObject) {
        writeMembers(into: &object)
    }
}

extension VerifyAuthChallengeResponseResponse: ResponseMembers {
    static let memberNames = ["answerCorrect"]

    func member(at position: Int) -> ResponseMember? {
        answerCorrect.map(ResponseMember.bool)
    }
}
