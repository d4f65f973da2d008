/// The exit status of `cognito-local`: one per class of outcome, so scripts can tell them apart.
public enum CommandExitStatus: Int32, Sendable, CaseIterable {
    /// The invocation answered; the sign-in issued tokens.
    case success = 0
    /// The sign-in ran to the end and Define failed it.
    case authenticationFailed = 1
    /// The function answered with an error (a handler error, or a response Cognito would reject).
    case functionError = 2
    /// The function did not answer before the deadline and was stopped.
    case timedOut = 3
    /// The event file does not exist or cannot be read.
    case eventFileUnreadable = 4
    /// The event file is not JSON.
    case invalidJSON = 5
    /// The event's `triggerSource` is not one of the three custom-auth triggers.
    case unknownTrigger = 6
    /// The configuration (environment, env file, flags, user table) cannot work.
    case invalidConfiguration = 7
    /// The bootstrap could not be started, or exited (or reported an init error) before asking for an event.
    case bootstrapDidNotStart = 8
    /// The bootstrap exited or was killed while handling an invocation.
    case bootstrapCrashed = 9
    /// The sign-in needed an answer (or a password) and none was left: end of input or of `--answers`.
    case noMoreAnswers = 10
    /// `check`: at least one event did not produce what its expectation says.
    case checkFailed = 11
    /// The command line is wrong (swift-argument-parser's usage status).
    case usage = 64
}

/// Everything that stops a `cognito-local` command, each with one line a person can act on.
public enum InvokerError: Error, Sendable, Equatable, CustomStringConvertible {
    case eventFileUnreadable(path: String, reason: String)
    case invalidJSON(path: String, reason: String)
    case unknownTrigger(path: String, triggerSource: String)
    case invalidConfiguration(String)
    case functionError(type: String, message: String)
    case timedOut(seconds: Double)
    case bootstrapDidNotStart(String)
    case bootstrapCrashed(String)
    case noMoreAnswers(String)
    case checkFailed(failed: Int, total: Int)
    case usage(String)

    public var exitStatus: CommandExitStatus {
        switch self {
        case .eventFileUnreadable: .eventFileUnreadable
        case .invalidJSON: .invalidJSON
        case .unknownTrigger: .unknownTrigger
        case .invalidConfiguration: .invalidConfiguration
        case .functionError: .functionError
        case .timedOut: .timedOut
        case .bootstrapDidNotStart: .bootstrapDidNotStart
        case .bootstrapCrashed: .bootstrapCrashed
        case .noMoreAnswers: .noMoreAnswers
        case .checkFailed: .checkFailed
        case .usage: .usage
        }
    }

    public var description: String {
        switch self {
        case .eventFileUnreadable(let path, let reason): "cannot read event file \(path): \(reason)"
        case .invalidJSON(let path, let reason): "\(path) is not valid JSON: \(reason)"
        case .unknownTrigger(let path, let source):
            "\(path) is not a custom-auth trigger event: triggerSource \"\(source)\" is not DefineAuthChallenge, CreateAuthChallenge or VerifyAuthChallengeResponse"
        case .invalidConfiguration(let reason): "configuration: \(reason)"
        case .functionError(let type, let message): "the function failed with \(type): \(message)"
        case .timedOut(let seconds): "Task timed out after \(LambdaFormat.seconds(seconds)) seconds"
        case .bootstrapDidNotStart(let reason): "the bootstrap did not start: \(reason)"
        case .bootstrapCrashed(let reason): "the bootstrap crashed: \(reason)"
        case .noMoreAnswers(let reason): reason
        case .checkFailed(let failed, let total): "\(failed) of \(total) events did not produce what their expectations say"
        case .usage(let reason): reason
        }
    }
}

/// Numbers written the way Lambda writes them in its logs.
public enum LambdaFormat {
    /// Two decimals: `5.00`.
    public static func seconds(_ value: Double) -> String { fixed(value, decimals: 2) }

    /// Milliseconds with two decimals: `12.34`.
    public static func milliseconds(_ duration: Duration) -> String { fixed(duration.milliseconds, decimals: 2) }

    static func fixed(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int64((value * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(abs(scaled) % Int64(scale))
        let sign = scaled < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(String(repeating: "0", count: decimals - fraction.count))\(fraction)"
    }
}

extension Duration {
    /// The duration in milliseconds, as a floating-point number.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
