import LosslessJSON

/// Checks what the function did with a corpus event against the event's expectation. Each check returns the
/// problems found, as lines a person can act on; none when all is as expected.
public enum ExpectationCheck {
    /// `actual` against an expected value in which the string `"*"` stands for "present and not null".
    public static func mismatches(expected: JSONValue, actual: JSONValue?, path: String = "$") -> [String] {
        if expected == "*" {
            return actual == nil || actual == .null ? ["\(path): expected a value, found none"] : []
        }
        if case .object(let expectedObject) = expected {
            guard case .object(let actualObject)? = actual else {
                return ["\(path): expected an object, found \(actual?.text() ?? "nothing")"]
            }
            return expectedObject.flatMap { key, value in
                mismatches(expected: value, actual: actualObject[key], path: "\(path).\(key)")
            }
        }
        return expected == actual ? [] : ["\(path): expected \(expected.text()), found \(actual?.text() ?? "nothing")"]
    }

    /// An answer, however it was produced: JSON (which never starts with a UTF-8 byte-order mark), whose `response`
    /// matches the expectation, with everything but `response` exactly what arrived (Cognito needs the whole event
    /// back). For an HTTP API event (an expectation with `http`), the HTTP response instead.
    public static func response(_ answer: [UInt8], to event: CorpusEvent) -> [String] {
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
        if let http = event.expectation["http"] { return httpResponse(returned, expected: http) }
        guard let expected = event.expectation["response"] else {
            return ["expected the error \(event.expectation["error"]?.text() ?? "(none named)"), got a response"]
        }
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

    /// An HTTP API response (payload 2.0) against `{"statusCode": …, "headers": {…}, "body": …}`: the status, the
    /// headers named, and the body, which is a string of JSON, read and matched like a trigger's `response`.
    static func httpResponse(_ returned: JSONObject, expected: JSONValue) -> [String] {
        guard let expected = expected.objectValue else { return ["the expectation's `http` is not an object"] }
        var problems: [String] = []
        if let status = expected["statusCode"] {
            problems += mismatches(expected: status, actual: returned["statusCode"], path: "$.statusCode")
        }
        if let headers = expected["headers"] {
            problems += mismatches(expected: headers, actual: returned["headers"], path: "$.headers")
        }
        if let body = expected["body"] {
            guard let text = returned["body"]?.stringValue else { return problems + ["$.body: expected a string of JSON, found none"] }
            do {
                problems += mismatches(expected: body, actual: try JSONValue(parsing: text), path: "$.body")
            } catch {
                problems.append("$.body is not JSON: \(error)")
            }
        }
        return problems
    }

    /// A function error: its type must be the expected one; its message must hold the expected fragment when the
    /// message is given (a bootstrap reports only a reference to its log, so its caller passes nil).
    public static func error(type: String, message: String?, for event: CorpusEvent) -> [String] {
        guard let expected = event.expectation["error"]?.objectValue else {
            return ["expected a response, got the error \(type)\(message.map { ": \($0)" } ?? "")"]
        }
        var problems: [String] = []
        if let expectedType = expected["type"]?.stringValue, expectedType != type {
            problems.append("expected the error \(expectedType), got \(type)")
        }
        if let message, let fragment = expected["messageContains"]?.stringValue, !message.contains(fragment) {
            problems.append("the error message does not contain \"\(fragment)\": \(message)")
        }
        return problems
    }

    /// How many messages went out, when the expectation says whether one is `delivered`.
    public static func deliveries(_ count: Int, for event: CorpusEvent) -> [String] {
        guard let delivered = event.expectation["delivered"]?.boolValue else { return [] }
        let expected = delivered ? 1 : 0
        return count == expected ? [] : ["expected \(expected) message(s) delivered, found \(count)"]
    }
}
