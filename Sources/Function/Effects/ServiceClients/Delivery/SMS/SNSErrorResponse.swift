import CurlHTTP

/// An error answer from SNS: the HTTP status, and the `<Type>`, `<Code>` and `<Message>` of its
/// `<ErrorResponse><Error>` XML.
public struct SNSErrorResponse: Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status of the answer.
    public let status: Int
    /// `Sender` or `Receiver`: whose fault SNS says it is.
    public let type: String?
    /// SNS's error code, such as `InvalidParameter`, `Throttling` or `AuthorizationError`.
    public let code: String?
    /// SNS's explanation, without the code, addresses or phone numbers (``ProviderMessage``).
    public let message: String?

    public init(status: Int, type: String?, code: String?, message: String?) {
        self.status = status
        self.type = type
        self.code = code
        self.message = message
    }

    /// Reads the error from a response; its message is redacted (``ProviderMessage``): no code, no phone number.
    init(_ response: HTTPResponse, masking secret: String) {
        let message = XMLText.firstElement("Message", in: response.body).map { ProviderMessage.redacted($0, code: secret) }
        self.init(
            status: response.status, type: XMLText.firstElement("Type", in: response.body),
            code: XMLText.firstElement("Code", in: response.body), message: message)
    }

    /// Throttling: SNS refused the request before acting on it, so one more try cannot send the message twice. A
    /// failure on SNS's side (5xx) is not retried: the message may have gone out, and a second try could send it
    /// again.
    public var isRetryable: Bool {
        status == 429 || ["Throttling", "Throttled", "ThrottlingException", "TooManyRequestsException"].contains(code ?? "")
    }

    public var description: String {
        "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
}
