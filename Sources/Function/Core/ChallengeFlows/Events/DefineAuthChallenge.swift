import LosslessJSON

/// Define Auth Challenge: decides the next challenge, or issues tokens, or fails the sign-in.
public typealias DefineAuthChallengeEvent = CognitoEvent<DefineAuthChallengeRequest, DefineAuthChallengeResponse>

public struct DefineAuthChallengeRequest: TriggerRequest {
    public static let triggerSource = TriggerSource.defineAuthChallenge

    public var userAttributes: [String: String]
    /// The challenges answered so far in this sign-in, oldest first.
    public var session: [SessionEntry]
    public var clientMetadata: [String: String]?
    /// True when Cognito runs the flow for a user that does not exist (PreventUserExistenceErrors).
    public var userNotFound: Bool

    public init(json: JSONValue, path: String) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: path)
        userAttributes = try reader.optionalStringMap("userAttributes") ?? [:]
        session = try SessionEntry.readSession(reader)
        clientMetadata = try reader.optionalStringMap("clientMetadata")
        userNotFound = try reader.optionalBool("userNotFound") ?? false
    }

    /// The request from fields read straight from the bytes, defaulted as `init(json:path:)` defaults them.
    init(_ fields: borrowing RequestFields) {
        userAttributes = fields.userAttributes ?? [:]
        session = fields.session ?? []
        clientMetadata = fields.clientMetadata
        userNotFound = fields.userNotFound ?? false
    }
}

public struct DefineAuthChallengeResponse: TriggerResponse {
    /// The next challenge to present.
    public var challengeName: ChallengeName?
    public var issueTokens: Bool?
    public var failAuthentication: Bool?

    public init(challengeName: ChallengeName? = nil, issueTokens: Bool? = nil, failAuthentication: Bool? = nil) {
        self.challengeName = challengeName
        self.issueTokens = issueTokens
        self.failAuthentication = failAuthentication
    }

    public init(json: JSONValue?, path: String) throws(EventDecodingError) {
        guard let json else { return }
        let reader = try FieldReader(json, path: path)
        challengeName = try reader.optionalString("challengeName").map(ChallengeName.init(rawValue:))
        issueTokens = try reader.optionalBool("issueTokens")
        failAuthentication = try reader.optionalBool("failAuthentication")
    }

    /// Writes the fields that are set. A response that decides (issues tokens or fails) without naming a challenge
    /// writes `challengeName: null`, so that a challenge name in the incoming response is not sent back with it.
    public func write(into object: inout JSONObject) {
        writeMembers(into: &object)
    }
}

extension DefineAuthChallengeResponse: ResponseMembers {
    static let memberNames = ["challengeName", "issueTokens", "failAuthentication"]

    func member(at position: Int) -> ResponseMember? {
        switch position {
        case 0:
            if let challengeName {
                .string(challengeName.rawValue)
            } else if issueTokens != nil || failAuthentication != nil {
                .null
            } else {
                nil
            }
        case 1: issueTokens.map(ResponseMember.bool)
        default: failAuthentication.map(ResponseMember.bool)
        }
    }
}
