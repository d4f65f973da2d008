import Foundation
import LosslessJSON

/// An event file and what it must produce: `NAME.json` with `NAME.expected.json` beside it, which names the event's
/// flow (`"flow"`, `email-code` when absent), extra settings (`"environment"`), and either the `"response"` it must
/// hold (`"*"` for "present, any value") and whether a message is `"delivered"`, or the `"error"` it must raise
/// (`{"type": …, "messageContains": …}`). An API Gateway HTTP API event (the passkey registration API) expects
/// `"http"`: `{"statusCode": …, "headers": {…}, "body": …}`, its body matched as JSON. Events/ holds one for every
/// trigger and step of every flow.
public struct CorpusEvent: CustomStringConvertible, Sendable {
    /// The path below the corpus folder, e.g. `email-code/02-create-code.json`.
    public let name: String
    public let bytes: [UInt8]
    public let expectation: JSONObject

    public init(name: String, bytes: [UInt8], expectation: JSONObject) {
        self.name = name
        self.bytes = bytes
        self.expectation = expectation
    }

    /// The name, which is how a test run or a check lists each event.
    public var description: String { name }

    /// True for an API Gateway HTTP API event, whose expectation is an HTTP response (`"http"`).
    public var isHTTPAPIEvent: Bool { expectation["http"] != nil }

    /// The flow the event belongs to (`email-code` when the expectation does not say).
    public var flow: String { expectation["flow"]?.stringValue ?? "email-code" }

    /// The settings the expectation names: its flow and its `environment`.
    public var settings: [String: String] {
        let extra = (expectation["environment"]?.objectValue ?? JSONObject()).compactMap { key, value in
            value.stringValue.map { (key, $0) }
        }
        return ["CHALLENGE_FLOW": flow].merging(extra) { $1 }
    }

    /// Every event file below `directory` (sorted by path); an event without an expectation is an error, so that a
    /// new file is a new check.
    public static func load(directory: URL) throws(CorpusError) -> [CorpusEvent] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            throw CorpusError(message: "\(directory.path) is not a readable folder")
        }
        let files = enumerator.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".expected.json") }
            .sorted { $0.path < $1.path }
        var events: [CorpusEvent] = []
        for file in files {
            let name = String(file.standardizedFileURL.path.dropFirst(directory.standardizedFileURL.path.count + 1))
            let expectationFile = file.deletingPathExtension().appendingPathExtension("expected.json")
            guard let expectationBytes = FileManager.default.contents(atPath: expectationFile.path) else {
                throw CorpusError(message: "\(name) has no \(expectationFile.lastPathComponent) beside it")
            }
            guard let expectation = (try? JSONValue(parsing: Array(expectationBytes)))?.objectValue else {
                throw CorpusError(message: "\(expectationFile.lastPathComponent) is not a JSON object")
            }
            guard let bytes = FileManager.default.contents(atPath: file.path) else {
                throw CorpusError(message: "\(name) cannot be read")
            }
            events.append(CorpusEvent(name: name, bytes: Array(bytes), expectation: expectation))
        }
        return events
    }
}

extension CorpusEvent {
    /// The Unix seconds a corpus folder's events were written for, from its `clock.txt`; nil when it has none.
    public static func clock(of directory: String) throws(CorpusError) -> Int64? {
        let path = directory + "/clock.txt"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        guard let seconds = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CorpusError(message: "\(path) must hold the Unix seconds the events were written for, e.g. 1763800000")
        }
        return seconds
    }
}

/// A corpus could not be read.
public struct CorpusError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}

/// Corpus events that need the same settings, so that one function (one bootstrap process) can serve them all.
public struct CorpusGroup: CustomStringConvertible, Sendable {
    public let events: [CorpusEvent]

    /// The settings every event of the group names.
    public var settings: [String: String] { events[0].settings }

    /// The settings that tell the groups apart, e.g. `ALLOW_CAPTCHA_ONLY_SIGN_IN=true CHALLENGE_FLOW=captcha (8 events)`.
    public var description: String {
        settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + " (\(events.count) events)"
    }

    /// `events` grouped by settings, each group in the corpus's order.
    public static func grouping(_ events: [CorpusEvent]) -> [CorpusGroup] {
        var order: [String] = []
        var byKey: [String: [CorpusEvent]] = [:]
        for event in events {
            let key = event.settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{0}")
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(event)
        }
        return order.map { CorpusGroup(events: byKey[$0]!) }
    }
}
