import ChallengeFlows
import CognitoEvents
import CognitoTriggers
import Foundation
import Synchronization
import PosixLock
import LosslessJSON
import Testing

/// The sample events under Events/ with what each must produce (`NAME.expected.json` beside `NAME.json`).
struct CorpusEvent: CustomTestStringConvertible, Sendable {
    /// The path below Events/, e.g. `email-code/02-create-code.json`.
    let name: String
    let bytes: [UInt8]
    let expectation: JSONObject

    var testDescription: String { name }

    /// The flow the event belongs to (`email-code` when the expectation does not say).
    var flow: String { expectation["flow"]?.stringValue ?? "email-code" }

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let eventsDirectory = repositoryRoot.appendingPathComponent("Events")
    static let captchaCatalog = repositoryRoot.appendingPathComponent("Deploy/captcha-catalog.json").path

    /// The values the corpus was written with (see Events/README.md).
    static let secret = "local-development-secret-do-not-deploy-0001"
    static let now: Int64 = 1_763_800_000

    /// Every event file under Events/; an event without an expectation is an error, so a new file is a new test.
    static func all() throws -> [CorpusEvent] {
        let files = FileManager.default.enumerator(at: eventsDirectory, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".expected.json") }
            .sorted { $0.path < $1.path }
        return try files.map { file in
            let name = String(file.path.dropFirst(eventsDirectory.path.count + 1))
            let expectationFile = file.deletingPathExtension().appendingPathExtension("expected.json")
            guard let expectation = try JSONValue(parsing: Array(Data(contentsOf: expectationFile))).objectValue else {
                throw CorpusError(message: "\(expectationFile.lastPathComponent) is not a JSON object")
            }
            return CorpusEvent(name: name, bytes: Array(try Data(contentsOf: file)), expectation: expectation)
        }
    }

    /// The configuration a deployment of this event's flow would have, with the expectation's `environment`.
    func environment(outbox: String) -> [String: String] {
        let extra = (expectation["environment"]?.objectValue ?? JSONObject()).compactMap { key, value in
            value.stringValue.map { (key, $0) }
        }
        return [
            "CHALLENGE_FLOW": flow, "CODE_HASH_SECRET": Self.secret, "CAPTCHA_CATALOG": Self.captchaCatalog,
            "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox,
        ].merging(extra) { $1 }
    }
}

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

struct CorpusError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Collects delivered messages instead of sending them.
final class RecordingDelivery: CodeDelivery, Sendable {
    private let delivered = PosixLock<[CodeMessage]>([])

    var messages: [CodeMessage] { delivered.withLock { $0 } }

    func deliver(_ message: CodeMessage) throws {
        delivered.withLock { $0.append(message) }
    }
}

/// Checks `actual` against an expected value in which the string `"*"` stands for "present and not null".
func mismatches(expected: JSONValue, actual: JSONValue?, path: String = "$") -> [String] {
    if expected == "*" {
        return actual == nil || actual == .null ? ["\(path): expected a value, found none"] : []
    }
    if case .object(let expectedObject) = expected {
        guard case .object(let actualObject)? = actual else {
            return ["\(path): expected an object, found \(actual?.text() ?? "nothing")"]
        }
        return expectedObject.flatMap { key, value in mismatches(expected: value, actual: actualObject[key], path: "\(path).\(key)") }
    }
    return expected == actual ? [] : ["\(path): expected \(expected.text()), found \(actual?.text() ?? "nothing")"]
}
