import Invoker

extension TriggerCallError {
    /// The error Cognito answers the client when a trigger invocation ends the sign-in.
    var poolError: PoolError {
        switch self {
        case .functionError(let trigger, _, let message):
            PoolError(.userLambdaValidation, "\(trigger.shortName) failed with error \(message).")
        case .invalidResponse(let trigger, let reason):
            PoolError(.invalidLambdaResponse, "Invalid \(trigger.shortName) response: \(reason).")
        case .timedOut(let trigger, _):
            PoolError(.unexpectedLambda, "\(trigger.shortName) invocation failed due to error Socket timeout while invoking Lambda function.")
        case .runtimeExited(let trigger, let status):
            PoolError(.userLambdaValidation, "\(trigger.shortName) failed with error Runtime exited with error: \(status).")
        case .cannotRun(let error):
            PoolError(.unexpectedLambda, "The triggers could not be invoked: \(error.description).")
        }
    }
}
