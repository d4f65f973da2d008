import CurlHTTP

/// Why SNS did not take a code SMS. Descriptions name the endpoint, status and SNS's own error; never the code.
public enum SNSDeliveryError: Error, Sendable, CustomStringConvertible {
    /// The phone number is not E.164 (`+` and 8 to 15 digits), so no request was made; the number's length in
    /// characters (the number itself is never kept in an error, which reaches the log).
    case invalidPhoneNumber(length: Int)
    /// SNS answered with an error status: on the only attempt, or again after one retry of throttling or a 5xx.
    case rejected(SNSErrorResponse, attempts: Int)
    /// No answer within the delivery's time budget.
    case timedOut(budget: Duration, attempts: Int)
    /// No HTTP exchange happened: nothing listens, the name does not resolve, TLS failed, the connection timed out.
    case unreachable(endpoint: String, CurlError, attempts: Int)

    /// How many requests were made: 0 for a refused phone number.
    public var attempts: Int {
        switch self {
        case .invalidPhoneNumber: 0
        case .rejected(_, let attempts), .timedOut(_, let attempts), .unreachable(_, _, let attempts): attempts
        }
    }

    public var description: String {
        let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
        switch self {
        case .invalidPhoneNumber(let length):
            return "The phone number (\(length) characters) is not in E.164 form (+ and 8 to 15 digits), so no SMS was sent."
        case .rejected(let response, _):
            return "SNS refused the code SMS: \(response) (\(tries))."
        case .timedOut(let budget, _):
            let (seconds, attoseconds) = budget.components
            let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            return "SNS did not answer within the \(milliseconds) ms delivery budget (\(tries))."
        case .unreachable(let endpoint, let error, _):
            let hint =
                error.kind == .timedOut
                ? "; a Lambda function in a VPC reaches SNS only through a NAT gateway or an SNS VPC endpoint" : ""
            return "Could not reach SNS at \(endpoint): \(error)\(hint) (\(tries))."
        }
    }
}
