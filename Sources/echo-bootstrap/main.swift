import LambdaRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers every event with its own bytes: the runtime loop's cost with nothing else in the way.
///
/// Two test switches, read once at start: `ECHO_FAIL_INIT=1` throws while building the handler (an `init/error`),
/// and an event that is exactly `"fail"` (with the quotes) makes the handler throw.
struct EchoHandler: LambdaHandler {
    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        context.logger.debug("echoing \(event.count) bytes")
        guard event != Array("\"fail\"".utf8) else { throw EchoFailure.asked }
        return event
    }
}

enum EchoFailure: Error, CustomStringConvertible {
    case asked, initializationAsked

    var description: String {
        switch self {
        case .asked: "the event asked the echo handler to fail"
        case .initializationAsked: "ECHO_FAIL_INIT asked the echo handler not to start"
        }
    }
}

LambdaRuntime.run {
    if let flag = getenv("ECHO_FAIL_INIT"), String(cString: flag) == "1" { throw EchoFailure.initializationAsked }
    return EchoHandler()
}
