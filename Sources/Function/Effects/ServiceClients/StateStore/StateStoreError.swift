import CurlHTTP

/// Why a ``StateStore`` call failed. Descriptions are sentences naming the operation, table and DynamoDB's own
/// error; never a record's values or a credential.
public enum StateStoreError: Error, Sendable, CustomStringConvertible {
    /// DynamoDB refused the request for now: `ProvisionedThroughputExceededException`, `ThrottlingException`,
    /// `RequestLimitExceeded` or HTTP 429.
    case throttled(DynamoDBErrorResponse)
    /// DynamoDB failed on its side (HTTP 5xx); a write may or may not have happened.
    case serviceFailure(DynamoDBErrorResponse)
    /// The credentials were refused or lack permission on the table.
    case accessDenied(DynamoDBErrorResponse)
    /// Any other error answer, such as a missing table (`ResourceNotFoundException`) or a `ValidationException`.
    case rejected(DynamoDBErrorResponse)
    /// No answer within the call's time budget.
    case timedOut(operation: String, table: String, budget: Duration)
    /// No HTTP exchange happened: nothing listens, the name does not resolve, TLS failed.
    case unreachable(endpoint: String, CurlError)
    /// DynamoDB answered with success, but not with what the operation returns.
    case malformedAnswer(operation: String, table: String, problem: String)
    /// Other writers changed the record every time a read-modify-write tried; nothing was written.
    case contended(key: String, attempts: Int)

    public var description: String {
        switch self {
        case .throttled(let response):
            "DynamoDB throttled \(response.request) (\(response.detail))."
        case .serviceFailure(let response):
            "DynamoDB failed on its side during \(response.request) (\(response.detail))."
        case .accessDenied(let response):
            "DynamoDB denied \(response.request) (\(response.detail)); check the credentials and the role's "
                + "dynamodb:GetItem and dynamodb:PutItem permissions on the table."
        case .rejected(let response):
            "DynamoDB rejected \(response.request) (\(response.detail))."
        case .timedOut(let operation, let table, let budget):
            "DynamoDB did not answer \"\(operation)\" on table \"\(table)\" within the \(budget.wholeMilliseconds) ms "
                + "budget; a Lambda function in a VPC reaches DynamoDB only through a gateway endpoint or a NAT gateway."
        case .unreachable(let endpoint, let error):
            "Could not reach DynamoDB at \"\(endpoint)\": \(error)."
        case .malformedAnswer(let operation, let table, let problem):
            "DynamoDB's answer to \"\(operation)\" on table \"\(table)\" is malformed: \(problem)."
        case .contended(_, let attempts):
            "The sign-in state record changed under \(attempts) read-modify-write attempts in a row; nothing was written."
        }
    }
}
