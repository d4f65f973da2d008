import CurlHTTP
import LosslessJSON

/// Why a parameter could not be read. Each description is a sentence that names the parameter, never its value.
public enum ParameterStoreError: Error, Sendable, CustomStringConvertible {
    /// Parameter Store has no parameter of that name (`ParameterNotFound`).
    case notFound(parameter: String)
    /// The caller may not read the parameter, or may not use its KMS key to decrypt it (`AccessDeniedException`).
    case accessDenied(parameter: String, message: String?)
    /// No HTTP exchange happened: nothing listens, the name does not resolve, TLS failed, the connection timed out.
    case unreachable(parameter: String, endpoint: String, CurlError)
    /// No answer within the read's time budget.
    case timedOut(parameter: String, budget: Duration)
    /// Any other error answer: a bad signature, throttling, a failure on AWS's side.
    case rejected(parameter: String, status: Int, type: String?)
    /// A success status whose body is not a `GetParameter` answer.
    case malformed(parameter: String, reason: String)
    /// The parameter exists but is not a `SecureString`, so the secret is stored unencrypted.
    case notSecureString(parameter: String, type: String)

    /// The parameter the failed read was for.
    public var parameter: String {
        switch self {
        case .notFound(let name), .accessDenied(let name, _), .unreachable(let name, _, _), .timedOut(let name, _),
            .rejected(let name, _, _), .malformed(let name, _), .notSecureString(let name, _):
            name
        }
    }

    public var description: String {
        switch self {
        case .notFound(let name):
            "Parameter Store has no parameter \"\(name)\"."
        case .accessDenied(let name, let message):
            "Parameter Store denied access to parameter \"\(name)\"" + (message.map { ": \($0)" } ?? "")
                + "; the function's role needs ssm:GetParameter on it and kms:Decrypt on its key."
        case .unreachable(let name, let endpoint, let error):
            "Could not reach Parameter Store at \"\(endpoint)\" to read parameter \"\(name)\": \(error)."
        case .timedOut(let name, let budget):
            "Parameter Store did not answer for parameter \"\(name)\" within the \(budget.wholeMilliseconds) ms budget."
        case .rejected(let name, let status, let type):
            "Parameter Store refused to read parameter \"\(name)\": HTTP \(status)" + (type.map { " \"\($0)\"" } ?? "") + "."
        case .malformed(let name, let reason):
            "Parameter Store's answer for parameter \"\(name)\" could not be read: \(reason)."
        case .notSecureString(let name, let type):
            "Parameter \"\(name)\" is of type \"\(type)\", not SecureString: store the secret encrypted."
        }
    }

    /// The error an error answer stands for. AWS names the error type in `X-Amzn-ErrorType` and in the body's
    /// `__type`, either possibly qualified (`com.amazonaws.ssm#ParameterNotFound`, `AccessDeniedException:http://…`).
    init(parameter: String, failure response: HTTPResponse) {
        let body = (try? JSONValue(parsing: response.body))?.objectValue
        let headerType = response.header("x-amzn-ErrorType").map { String($0.prefix { $0 != ":" }) }
        let bodyType = body?["__type"]?.stringValue.map { String($0.split(separator: "#").last ?? "") }
        let type = (headerType ?? bodyType).flatMap { $0.isEmpty ? nil : $0 }
        switch type {
        case "ParameterNotFound":
            self = .notFound(parameter: parameter)
        case "AccessDeniedException":
            let message = (body?["message"] ?? body?["Message"])?.stringValue.map { String($0.prefix(300)) }
            self = .accessDenied(parameter: parameter, message: message)
        default:
            self = .rejected(parameter: parameter, status: response.status, type: type)
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
