import LosslessJSON

/// Create Auth Challenge: builds the challenge Define asked for.
public typealias CreateAuthChallengeEvent = CognitoEvent<CreateAuthChallengeRequest, CreateAuthChallengeResponse>

public struct CreateAuthChallengeRequest: TriggerRequest {
    public static let triggerSource = TriggerSource.createAuthChallenge

    public var userAttributes: [String: String]
    /// The challenge Define named; `CUSTOM_CHALLENGE` for every custom step.
    public var challengeName: ChallengeName
    /// The challenges answered so far in this sign-in, oldest first.
    public var session: [SessionEntry]
    public var clientMetadata: [String: String]?
    public var userNotFound: Bool

    public init(json: JSONValue, path: String) throws(EventDecodingError) {
        let reader = try FieldReader(json, path: path)
        userAttributes = try reader.optionalStringMap("userAttributes") ?? [:]
        challengeName = ChallengeName(rawValue: try reader.string("challengeName"))
        session = try SessionEntry.readSession(reader)
        clientMetadata = try reader.optionalStringMap("clientMetadata")
        userNotFound = try reader.optionalBool("userNotFound") ?? false
    }

    /// The request from fields read straight from the bytes, defaulted as `init(json:path:)` defaults them; nil
    /// without `challengeName`.
    init?(_ fields: borrowing RequestFields) {
        guard let challengeName = fields.challengeName else { return nil }
        userAttributes = fields.userAttributes ?? [:]
        self.challengeName = ChallengeName(rawValue: challengeName)
        session = fields.session ?? []
        clientMetadata = fields.clientMetadata
        userNotFound = fields.userNotFound ?? false
    }
}

public struct CreateAuthChallengeResponse: TriggerResponse {
    /// Sent to the client with the challenge.
    public var publicChallengeParameters: [String: String]?
    /// Kept by Cognito and handed to Verify; never seen by the client.
    public var privateChallengeParameters: [String: String]?
    /// Recorded on this challenge's session entry for later Define and Create calls; never seen by the client.
    public var challengeMetadata: String?

    public init(
        publicChallengeParameters: [String: String]? = nil, privateChallengeParameters: [String: String]? = nil,
        challengeMetadata: String? = nil
    ) {
        self.publicChallengeParameters = publicChallengeParameters
        self.privateChallengeParameters = privateChallengeParameters
        self.challengeMetadata = challengeMetadata
    }

    public init(json: JSONValue?, path: String) throws(EventDecodingError) {
        guard let json else { return }
        let reader = try FieldReader(json, path: path)
        publicChallengeParameters = try reader.optionalStringMap("publicChallengeParameters")
        privateChallengeParameters = try reader.optionalStringMap("privateChallengeParameters")
        challengeMetadata = try reader.optionalString("challengeMetadata")
    }

    public func write(into object: inout JSONObject) {
        writeMembers(into: &object)
    }
}

extension CreateAuthChallengeResponse: ResponseMembers {
    static let memberNames = ["publicChallengeParameters", "privateChallengeParameters", "challengeMetadata"]

    func member(at position: Int) -> ResponseMember? {
        switch position {
        case 0: publicChallengeParameters.map(ResponseMember.strings)
        case 1: privateChallengeParameters.map(ResponseMember.strings)
        default: challengeMetadata.map(ResponseMember.string)
        }
    }
}

extension JSONValue {
    /// An object of strings, members sorted by key so that output is stable.
    static func stringMap(_ map: [String: String]) -> JSONValue {
        // A dictionary's keys differ as Swift compares strings, so they differ byte for byte too.
        .object(JSONObject(distinctMembers: sortedByKey(map).map { ($0.key, .string($0.value)) }))
    }

    /// The map's members in the order `stringMap(_:)` writes them.
    static func sortedByKey(_ map: [String: String]) -> [(key: String, value: String)] {
        // The members are made once, in an array of their number, and sorted in place.
        var members: [(key: String, value: String)] = []
        members.reserveCapacity(map.count)
        for member in map { members.append(member) }
        members.sort { $0.key < $1.key }
        return members
    }
}
