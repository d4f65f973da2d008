import Basics
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
    /// SNS's explanation, with the code masked.
    public let message: String?

    public init(status: Int, type: String?, code: String?, message: String?) {
        self.status = status
        self.type = type
        self.code = code
        self.message = message
    }

    /// Reads the error from a response. Any occurrence of `secret` (the code being sent) in SNS's message is
    /// masked, and the message is cut to a few hundred characters.
    init(_ response: HTTPResponse, masking secret: String) {
        let message = XMLText.firstElement("Message", in: response.body)
            .map { secret.isEmpty ? $0 : $0.replacingText(secret, with: "[code]") }
            .map { String($0.prefix(300)) }
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
