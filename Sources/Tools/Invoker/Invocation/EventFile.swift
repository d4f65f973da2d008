import ChallengeFlows
import Foundation
import LosslessJSON
import Platform
import ServiceClients

/// An event file read for invocation, checked just enough to give a clear error before anything runs: it exists,
/// it is JSON, and its `triggerSource` (when it has one) is a custom-auth trigger. Everything else is the
/// function's to judge, as it would be in Lambda.
public enum EventFile {
    /// The file's bytes; `-` reads standard input.
    public static func read(_ path: String) throws(InvokerError) -> [UInt8] {
        let bytes: [UInt8]
        if path == "-" {
            bytes = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else {
            do {
                bytes = try LocalFile.contents(of: path)
            } catch {
                throw .eventFileUnreadable(path: path, reason: error.reason)
            }
        }
        try check(bytes, path: path)
        return bytes
    }

    /// Throws for bytes that are not JSON, or that name a trigger this function does not serve.
    public static func check(_ bytes: [UInt8], path: String) throws(InvokerError) {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: bytes)
        } catch {
            throw .invalidJSON(path: path == "-" ? "standard input" : path, reason: error.description)
        }
        if let source = json.objectValue?["triggerSource"]?.stringValue, TriggerSource(eventValue: source) == nil {
            throw .unknownTrigger(path: path == "-" ? "standard input" : path, triggerSource: source)
        }
    }
}
