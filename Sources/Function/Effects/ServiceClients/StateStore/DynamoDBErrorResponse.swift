import CurlHTTP
import LosslessJSON

/// An error answer from DynamoDB to one request: the HTTP status, and the error type and message of its JSON body.
public struct DynamoDBErrorResponse: Sendable, Equatable {
    /// `GetItem` or `PutItem`.
    public let operation: String
    /// The table the request named.
    public let table: String
    /// The HTTP status: 400 for most errors, 5xx for DynamoDB's own failures.
    public let status: Int
    /// The error type without its namespace, such as `ConditionalCheckFailedException` or `AccessDeniedException`.
    public let code: String?
    /// DynamoDB's message, cut to 300 characters, with anything that could be a stored value or key left out.
    public let message: String?
    /// The item that made a conditional write fail, when the request asked for it.
    let item: JSONObject?

    /// An error answer as given; the store reads its own from each response.
    public init(operation: String, table: String, status: Int, code: String?, message: String?) {
        self.init(operation: operation, table: table, status: status, code: code, message: message, item: nil)
    }

    private init(operation: String, table: String, status: Int, code: String?, message: String?, item: JSONObject?) {
        self.operation = operation
        self.table = table
        self.status = status
        self.code = code
        self.message = message.map(Self.redacted)
        self.item = item
    }

    /// Reads the error from a response whose body is `{"__type":"namespace#Code","message":"..."}`, or from the
    /// `x-amzn-ErrorType` header when the body is not JSON.
    init(operation: String, table: String, response: HTTPResponse) {
        let body = (try? JSONValue(parsing: response.body))?.objectValue
        let bodyCode = body?["__type"]?.stringValue.map { String($0.split(separator: "#").last ?? "") }
        let headerCode = response.header("x-amzn-ErrorType").map { String($0.prefix { $0 != ":" }) }
        let message = (body?["message"] ?? body?["Message"])?.stringValue.map { String($0.prefix(300)) }
        self.init(
            operation: operation, table: table, status: response.status, code: bodyCode ?? headerCode, message: message,
            item: body?["Item"]?.objectValue)
    }

    /// The message with every long run of letters, digits and `+/=_-` that mixes letters and digits (a record key,
    /// a seal, a hash, a token) replaced by `…`, so that logs never carry what the table stores. Words, ARNs' account
    /// numbers and error names stay readable.
    static func redacted(_ message: String) -> String {
        var output = ""
        var run = ""
        func flush() {
            let letters = run.unicodeScalars.contains { $0.properties.isAlphabetic }
            let digits = run.unicodeScalars.contains { ("0"..."9").contains($0) }
            output += run.unicodeScalars.count >= 16 && letters && digits ? "…" : run
            run = ""
        }
        for scalar in message.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "+/=_-".unicodeScalars.contains(scalar) {
                run.unicodeScalars.append(scalar)
            } else {
                flush()
                output.unicodeScalars.append(scalar)
            }
        }
        flush()
        return output
    }

    /// The conditional write found another version: not a failure, the compare-and-swap lost.
    var isConditionFailure: Bool { code == "ConditionalCheckFailedException" }

    /// The error the response stands for.
    var error: StateStoreError {
        let throttling = ["ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"]
        let denial = [
            "AccessDeniedException", "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignature",
            "MissingAuthenticationTokenException", "ExpiredTokenException", "InvalidClientTokenId",
        ]
        if status == 429 || throttling.contains(code ?? "") { return .throttled(self) }
        if status >= 500 { return .serviceFailure(self) }
        if status == 403 || denial.contains(code ?? "") { return .accessDenied(self) }
        return .rejected(self)
    }

    /// `"PutItem" on table "limits"`.
    var request: String { "\"\(operation)\" on table \"\(table)\"" }

    /// `HTTP 400 AccessDeniedException: message`.
    var detail: String {
        "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
}
