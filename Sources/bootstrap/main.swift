import CognitoTriggers
import LambdaRuntime

/// The Lambda function behind all three custom-auth triggers: it dispatches on the event's `triggerSource`, so one
/// deployment can back Define, Create and Verify.
struct CognitoTriggerFunction: LambdaHandler {
    let triggers: CognitoTriggerHandler

    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        do {
            let result = try triggers.handle(event)
            context.logger.info(result.summary)
            return result.responseBytes
        } catch {
            throw FunctionError(errorType: error.errorType, description: "\(error)")
        }
    }
}

/// A trigger or configuration error as Lambda is told about it.
struct FunctionError: LambdaReportableError, CustomStringConvertible {
    let errorType: String
    let description: String
}

LambdaRuntime.run {
    do {
        let configuration = try TriggerConfiguration(environment: ProcessEnvironment.variables())
        return CognitoTriggerFunction(triggers: try CognitoTriggerHandler(configuration: configuration))
    } catch {
        throw FunctionError(errorType: "Runtime.InvalidConfiguration", description: "\(error)")
    }
}
