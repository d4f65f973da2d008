import ChallengeFlows
import CurlHTTP
import LosslessJSON

/// A ``StateStore`` in an Amazon DynamoDB table, over DynamoDB's JSON API, signed with Signature Version 4, on one
/// kept-alive libcurl connection.
///
/// Reads are `GetItem` with `ConsistentRead`; writes are `PutItem` with a `ConditionExpression` on the version and
/// expiry, so a lost race comes back as `ConditionalCheckFailedException` with the winning item
/// (`ReturnValuesOnConditionCheckFailure`), which ``write(_:_:expectedVersion:now:)`` returns as a conflict. Each call ends within the configured time budget and is not retried: a caller's
/// compare-and-swap loop reads again anyway, and a conditional write retried after a 5xx could not tell its own
/// success from a conflict. Calls from several threads take turns on the connection; each call's budget starts when
/// its turn comes.
public final class DynamoDBStateStore: StateStore {
    /// The table, endpoint, credentials and time budget this store uses.
    public let configuration: DynamoDBConfiguration
    private let client: AWSServiceClient

    /// - Parameter clock: Unix seconds for the signature's date.
    public init(configuration: DynamoDBConfiguration, clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds)
        throws(CurlError)
    {
        self.configuration = configuration
        client = try AWSServiceClient(
            service: "dynamodb", region: configuration.region, credentials: configuration.credentials,
            endpoint: configuration.endpoint, caFile: configuration.caFile, clock: clock)
    }

    public func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord? {
        let body: JSONValue = ["TableName": .string(configuration.tableName), "Key": DynamoDBItem.key(key), "ConsistentRead": true]
        let answer = try call("GetItem", body)
        guard let object = answer.objectValue else { throw malformed("GetItem", "the body is not a JSON object") }
        return try liveRecord(in: object["Item"]?.objectValue, operation: "GetItem", now: now)
    }

    public func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError)
        -> WriteOutcome
    {
        var names = JSONObject([("#expiresAt", .string(DynamoDBItem.expiryAttribute))])
        var values = JSONObject([(":now", DynamoDBItem.number(now))])
        let condition: String
        if let expectedVersion {
            condition = "#version = :expected AND #expiresAt > :now"
            names["#version"] = .string(DynamoDBItem.versionAttribute)
            values[":expected"] = DynamoDBItem.number(expectedVersion)
        } else {
            condition = "attribute_not_exists(#pk) OR #expiresAt <= :now"
            names["#pk"] = .string(DynamoDBItem.keyAttribute)
        }
        let version = (expectedVersion ?? 0) + 1
        let body: JSONValue = [
            "TableName": .string(configuration.tableName),
            "Item": DynamoDBItem.item(key: key, record: record, version: version),
            "ConditionExpression": .string(condition), "ExpressionAttributeNames": .object(names),
            "ExpressionAttributeValues": .object(values),
            // A lost race answers with the item that won, so the caller decides again without reading it.
            "ReturnValuesOnConditionCheckFailure": "ALL_OLD",
        ]
        let response = try send("PutItem", body)
        guard (200..<300).contains(response.status) else {
            let failure = DynamoDBErrorResponse(operation: "PutItem", table: configuration.tableName, response: response)
            guard failure.isConditionFailure else { throw failure.error }
            return .conflict(current: try liveRecord(in: failure.item, operation: "PutItem", now: now))
        }
        return .written(version: version)
    }

    /// The record an item holds, nil for no item or an expired one.
    private func liveRecord(in item: JSONObject?, operation: String, now: Int64) throws(StateStoreError) -> StateRecord? {
        guard let item else { return nil }
        switch DynamoDBItem.record(from: item) {
        case .success(let record): return record.isExpired(at: now) ? nil : record
        case .failure(let problem): throw malformed(operation, problem.description)
        }
    }

    /// Sends one signed request within the time budget; the parsed body of a 2xx answer.
    private func call(_ operation: String, _ body: JSONValue) throws(StateStoreError) -> JSONValue {
        let response = try send(operation, body)
        guard (200..<300).contains(response.status) else {
            throw DynamoDBErrorResponse(operation: operation, table: configuration.tableName, response: response).error
        }
        do {
            return try JSONValue(parsing: response.body)
        } catch {
            throw malformed(operation, "\(error)")
        }
    }

    /// Sends one signed request within the time budget (no retry: a conditional write retried after a 5xx could
    /// not tell its own success from a conflict); the response, whatever its status.
    private func send(_ operation: String, _ body: JSONValue) throws(StateStoreError) -> HTTPResponse {
        let headers = [
            SignableRequest.Header("Content-Type", "application/x-amz-json-1.0"), .init("X-Amz-Target", "DynamoDB_20120810.\(operation)"),
        ]
        switch client.post(
            headers: headers, body: body.serialized(), budget: configuration.timeBudget, connectTimeout: configuration.timeBudget)
        {
        case .succeeded(let response, _), .refused(let response, _):
            return response
        case .timedOut:
            throw .timedOut(operation: operation, table: configuration.tableName, budget: configuration.timeBudget)
        case .failed(let error, _):
            throw .unreachable(endpoint: configuration.endpoint.baseURL, error)
        }
    }

    private func malformed(_ operation: String, _ problem: String) -> StateStoreError {
        .malformedAnswer(operation: operation, table: configuration.tableName, problem: problem)
    }
}
