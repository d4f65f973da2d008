import CurlHTTP
import LosslessJSON

/// Why SES did not take a code email. Descriptions name the endpoint, status and SES's own error; never the code.
public enum SESDeliveryError: Error, Sendable, CustomStringConvertible {
    /// SES answered with an error status: on the only attempt, or again after one retry of throttling or a 5xx.
    case rejected(SESErrorResponse, attempts: Int)
    /// No answer within the delivery's time budget.
    case timedOut(budget: Duration, attempts: Int)
    /// No HTTP exchange happened: nothing listens, the name does not resolve, TLS failed, the connection timed out.
    case unreachable(endpoint: String, CurlError, attempts: Int)

    public var attempts: Int {
        switch self {
        case .rejected(_, let attempts), .timedOut(_, let attempts), .unreachable(_, _, let attempts): attempts
        }
    }

    public var description: String {
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        switch self {
        case .rejected(let response, _):
            return "SES refused the code email: \(response) (\(tries))"
        case .timedOut(let budget, _):
            return "SES did not answer within the \(budget.wholeMilliseconds) ms delivery budget (\(tries))"
        case .unreachable(let endpoint, let error, _):
            let hint =
                error.kind == .timedOut
                ? "; a Lambda function in a VPC reaches SES only through a NAT gateway or an SES VPC endpoint" : ""
            return "could not reach SES at \(endpoint): \(error)\(hint) (\(tries))"
        }
    }
}

/// An error answer from SES: the HTTP status, and the error type and message SES put in the header and JSON body.
public struct SESErrorResponse: Sendable, Equatable, CustomStringConvertible {
    public let status: Int
    /// SES's error type, such as `MessageRejected`, `TooManyRequestsException` or `BadRequestException`.
    public let code: String?
    public let message: String?

    public init(status: Int, code: String?, message: String?) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// Reads the error from a response; its message is redacted (``ProviderMessage``): no code, no address (SES's
    /// sandbox refusal quotes the recipient).
    init(_ response: HTTPResponse, masking secret: String) {
        let body = (try? JSONValue(parsing: response.body))?.objectValue
        let headerCode = response.header("x-amzn-ErrorType").map { String($0.prefix { $0 != ":" }) }
        let bodyCode = (body?["__type"] ?? body?["code"] ?? body?["Code"])?.stringValue
            .map { String($0.split(separator: "#").last ?? "") }
        let message = (body?["message"] ?? body?["Message"])?.stringValue
            .map { ProviderMessage.redacted($0, code: secret) }
        self.init(status: response.status, code: headerCode ?? bodyCode, message: message)
    }

    /// Throttling: SES refused the request before acting on it, so one more try cannot send the message twice. A
    /// failure on SES's side (5xx) is not retried: the message may have gone out, and a second try could send it
    /// again.
    public var isRetryable: Bool {
        status == 429 || ["TooManyRequestsException", "ThrottlingException", "Throttling"].contains(code ?? "")
    }

    public var description: String {
        "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
}
