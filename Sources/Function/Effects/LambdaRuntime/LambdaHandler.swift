/// Answers one invocation: the event's bytes in, the response's bytes out.
///
/// The runtime never decodes events; a handler that throws gets its error reported to Lambda with `/error`, and the
/// runtime goes on to the next invocation.
public protocol LambdaHandler {
    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8]
}

/// An error that names its own Lambda error type (for example `Runtime.UnmarshalError`).
///
/// Errors that do not conform are reported as `Function.<SwiftTypeName>`. Either way the error message is the error's
/// description, so it must never carry a code, an answer or a secret.
public protocol LambdaReportableError: Error {
    var errorType: String { get }
}
