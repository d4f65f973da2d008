import Foundation
import LosslessJSON

/// The sample events under Events/ with what each must produce (`NAME.expected.json` beside `NAME.json`), for the
/// tests that run the corpus in process (CognitoTriggersTests) and through the built `bootstrap` (BootstrapTests).
public struct CorpusEvent: CustomStringConvertible, Sendable {
    /// The path below Events/, e.g. `email-code/02-create-code.json`.
    public let name: String
    public let bytes: [UInt8]
    public let expectation: JSONObject

    public init(name: String, bytes: [UInt8], expectation: JSONObject) {
        self.name = name
        self.bytes = bytes
        self.expectation = expectation
    }

    /// The name, which is how a test run lists each event it was given.
    public var description: String { name }

    /// The flow the event belongs to (`email-code` when the expectation does not say).
    public var flow: String { expectation["flow"]?.stringValue ?? "email-code" }

    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let eventsDirectory = repositoryRoot.appendingPathComponent("Events")
    public static let captchaCatalog = repositoryRoot.appendingPathComponent("Deploy/captcha-catalog.json").path

    /// The values the corpus was written with (see Events/README.md).
    public static let secret = "local-development-secret-do-not-deploy-0001"
    public static let now: Int64 = 1_763_800_000

    /// Every event file under Events/; an event without an expectation is an error, so a new file is a new test.
    public static func all() throws -> [CorpusEvent] {
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
    public func environment(outbox: String) -> [String: String] {
        let extra = (expectation["environment"]?.objectValue ?? JSONObject()).compactMap { key, value in
            value.stringValue.map { (key, $0) }
        }
        return [
            "CHALLENGE_FLOW": flow, "CODE_HASH_SECRET": Self.secret, "CAPTCHA_CATALOG": Self.captchaCatalog,
            "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox,
        ].merging(extra) { $1 }
    }
}

public struct CorpusError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    public init(message: String) {
        self.message = message
    }
}

/// Checks `actual` against an expected value in which the string `"*"` stands for "present and not null".
public func mismatches(expected: JSONValue, actual: JSONValue?, path: String = "$") -> [String] {
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

/// What every answer to a corpus event must be, however it was produced: JSON (which never starts with a UTF-8
/// byte-order mark), whose `response` matches the expectation, and everything but `response` exactly what arrived
/// (Cognito needs the whole event back). The problems found; none when the answer is right.
public func responseProblems(_ event: CorpusEvent, answer: [UInt8]) -> [String] {
    if answer.starts(with: [0xEF, 0xBB, 0xBF]) {
        return ["the response starts with a UTF-8 byte-order mark"]
    }
    let output: JSONValue
    do {
        output = try JSONValue(parsing: answer)
    } catch {
        return ["the response is not JSON: \(error)"]
    }
    guard var returned = output.objectValue else { return ["the response is not a JSON object"] }
    guard let expected = event.expectation["response"] else { return ["\(event.name) expects no response"] }
    var problems = mismatches(expected: expected, actual: returned["response"])
    guard var input = try? JSONValue(parsing: event.bytes).objectValue else {
        return problems + ["\(event.name) is not a JSON object"]
    }
    input["response"] = nil
    returned["response"] = nil
    if returned != input {
        problems.append("the fields but `response` differ from the event's: \(JSONValue.object(returned).text())")
    }
    return problems
}
