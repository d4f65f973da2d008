import CognitoTriggers
import LambdaRuntime

/// The Lambda function behind all three custom-auth triggers: it dispatches on the event's `triggerSource`, so one
/// deployment can back Define, Create and Verify.
struct CognitoTriggerFunction: LambdaHandler {
    let triggers: CognitoTriggerHandler

    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        do {
            let result = try triggers.handle(event)
            if let warning = result.warning { context.logger.warn(warning) }
            context.logger.info(result.summary)
            return result.responseBytes
        } catch {
            // The detail stays in the log; Cognito shows the error message to whoever is signing in.
            context.logger.error("\(error.errorType): \(error)")
            throw FunctionError(errorType: error.errorType, description: TriggerError.publicMessage(reference: context.requestID))
        }
    }
}

/// A trigger or configuration error as Lambda is told about it.
struct FunctionError: LambdaReportableError, CustomStringConvertible {
    let errorType: String
    let description: String
}

LambdaRuntime.run { logger in
    do {
        let configuration = try TriggerConfiguration(environment: ProcessEnvironment.variables())
        for warning in configuration.startupWarnings { logger.warn(warning) }
        let function = CognitoTriggerFunction(triggers: try CognitoTriggerHandler(configuration: configuration))
        WarmUp.run(configuration: configuration)
        return function
    } catch {
        throw FunctionError(errorType: "Runtime.InvalidConfiguration", description: "\(error)")
    }
}
