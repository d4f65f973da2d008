import LambdaRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers every event with its own bytes: the runtime loop's cost with nothing else in the way.
///
/// Test switches: `ECHO_FAIL_INIT=1` (read once at start) throws while building the handler (an `init/error`); an
/// event that is exactly `"fail"` (with the quotes) makes the handler throw; `"slow"` makes it take five seconds.
struct EchoHandler: LambdaHandler {
    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        context.logger.debug("echoing \(event.count) bytes")
        if event == Array("\"fail\"".utf8) { throw EchoFailure.asked }
        if event == Array("\"slow\"".utf8) {
            let end = ContinuousClock.now + .seconds(5)
            while ContinuousClock.now < end { usleep(10_000) }  // signals cut usleep short
        }
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

LambdaRuntime.run { _ in
    if let flag = getenv("ECHO_FAIL_INIT"), String(cString: flag) == "1" { throw EchoFailure.initializationAsked }
    return EchoHandler()
}
