import EventCorpus
import ChallengeFlows
import CognitoEvents
import CognitoTriggers
import Foundation
import Synchronization
import PosixLock
import LosslessJSON
import TestSupport

/// A clock a test moves by hand, starting at the corpus's time.
final class TestClock: Sendable {
    let seconds = Atomic<Int64>(CorpusEvent.now)
    func advance(_ by: Int64) { seconds.add(by, ordering: .relaxed) }
    var read: @Sendable () -> Int64 { { self.seconds.load(ordering: .relaxed) } }
}

/// The Verify event Cognito sends after `create`: the same user and attributes, the private parameters Create
/// returned, and `answer`.
func verifyEvent(after create: CreateAuthChallengeEvent, answer: String) throws -> [UInt8] {
    guard var event = create.json.objectValue, var request = event["request"]?.objectValue else {
        throw CorpusError(message: "the Create event has no request")
    }
    request["challengeAnswer"] = .string(answer)
    request["privateChallengeParameters"] = .object(JSONObject(
        (create.response.privateChallengeParameters ?? [:]).map { ($0.key, .string($0.value)) }))
    request["challengeName"] = nil
    request["session"] = nil
    event["triggerSource"] = .string(TriggerSource.verifyAuthChallengeResponse.rawValue)
    event["request"] = .object(request)
    event["response"] = [:]
    return JSONValue.object(event).serialized()
}

/// Collects delivered messages instead of sending them.
final class RecordingDelivery: CodeDelivery, Sendable {
    private let delivered = PosixLock<[CodeMessage]>([])

    var messages: [CodeMessage] { delivered.withLock { $0 } }

    func deliver(_ message: CodeMessage) throws {
        delivered.withLock { $0.append(message) }
    }
}
