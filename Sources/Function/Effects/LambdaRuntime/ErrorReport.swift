import LosslessJSON

/// An error as Lambda is told about it: a type such as `Function.InvalidCode` and a message.
public struct ErrorReport: Sendable, Equatable {
    public let errorType: String
    public let errorMessage: String

    init(errorType: String, errorMessage: String) {
        self.errorType = errorType
        self.errorMessage = errorMessage
    }

    /// Uses the error's own type when it is a ``LambdaReportableError``, otherwise `Function.<SwiftTypeName>`.
    init(_ error: any Error) {
        let errorType = (error as? any LambdaReportableError)?.errorType ?? "Function.\(type(of: error))"
        self.init(errorType: errorType, errorMessage: String(describing: error))
    }

    /// The body Lambda expects: `{"errorMessage":…,"errorType":…,"stackTrace":[]}`.
    var body: [UInt8] {
        JSONValue.object(
            JSONObject([("errorMessage", .string(errorMessage)), ("errorType", .string(errorType)), ("stackTrace", .array([]))])
        ).serialized()
    }
}
