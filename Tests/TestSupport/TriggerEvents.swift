import ChallengeFlows
import DevelopmentSupport
import LosslessJSON
import Platform

/// The Verify event Cognito sends after `create`: the same user and attributes, the private parameters Create
/// returned, `answer`, and `clientMetadata` when given (RespondToAuthChallenge's, which Verify sees).
public func verifyEvent(
    after create: CreateAuthChallengeEvent, answer: String, clientMetadata: [String: String]? = nil
) throws -> [UInt8] {
    guard var event = create.json.objectValue, var request = event["request"]?.objectValue else {
        throw CorpusError(message: "the Create event has no request")
    }
    request["challengeAnswer"] = .string(answer)
    request["privateChallengeParameters"] = .object(JSONObject(
        (create.response.privateChallengeParameters ?? [:]).map { ($0.key, .string($0.value)) }))
    request["challengeName"] = nil
    request["session"] = nil
    if let clientMetadata { request["clientMetadata"] = .stringObject(clientMetadata) }
    event["triggerSource"] = .string(TriggerSource.verifyAuthChallengeResponse.rawValue)
    event["request"] = .object(request)
    event["response"] = [:]
    return JSONValue.object(event).serialized()
}

extension JSONValue {
    /// A JSON object of strings, its members in key order (so the bytes are the same on every run).
    public static func stringObject(_ strings: [String: String]) -> JSONValue {
        .object(JSONObject(strings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }
}

/// Collects delivered messages instead of sending them.
public final class RecordingDelivery: CodeDelivery, Sendable {
    private let delivered = PosixLock<[CodeMessage]>([])

    public init() {}

    /// Every message delivered so far, oldest first.
    public var messages: [CodeMessage] { delivered.withLock { $0 } }

    public func deliver(_ message: CodeMessage) throws {
        delivered.withLock { $0.append(message) }
    }
}
