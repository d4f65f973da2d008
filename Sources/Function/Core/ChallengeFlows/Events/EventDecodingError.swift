import LosslessJSON

/// Why bytes could not be read as a Cognito trigger event. Each message names the field path.
public enum EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not JSON.
    case invalidJSON(JSONParseError)
    /// A required field is absent or null.
    case missingField(path: String)
    /// A field holds the wrong JSON type.
    case wrongType(path: String, expected: String, found: String)
    /// `triggerSource` names a trigger this runtime does not handle.
    case unknownTriggerSource(String)

    public var description: String {
        switch self {
        case .invalidJSON(let error):
            "event is not valid JSON: \(error)"
        case .missingField(let path):
            "event is missing the required field \(path)"
        case .wrongType(let path, let expected, let found):
            "event field \(path) should be \(expected) but is \(found)"
        case .unknownTriggerSource(let source):
            "unknown triggerSource \"\(source)\": expected one of "
                + TriggerSource.allCases.map(\.rawValue).joined(separator: ", ")
                + " (optionally with the _Authentication suffix)"
        }
    }
}
