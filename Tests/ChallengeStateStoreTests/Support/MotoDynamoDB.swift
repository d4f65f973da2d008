import CurlHTTP
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// moto's DynamoDB on 127.0.0.1 with one table laid out as ``DynamoDBStateStore`` expects: started once for a
/// suite by the ``Trait/motoDynamoDB`` trait, and killed when the suite ends.
struct MotoDynamoDB: Sendable {
    static let region = "eu-west-1"
    static let credentials = AWSCredentials(accessKeyID: "AKIDSTATESTORE", secretAccessKey: "moto-does-not-check-this")

    @TaskLocal static var current: MotoDynamoDB?

    let endpoint: String
    let table: String

    /// The running server of the current suite; fails the test when the suite lacks the trait.
    static func running() throws -> MotoDynamoDB {
        try #require(current, "the suite needs the .motoDynamoDB trait")
    }

    func configuration(table: String? = nil, budget: Duration = DynamoDBConfiguration.defaultTimeBudget) -> DynamoDBConfiguration {
        DynamoDBConfiguration(
            region: Self.region, credentials: Self.credentials, tableName: table ?? self.table,
            endpoint: AWSEndpoint(url: endpoint)!, timeBudget: budget)
    }

    func store() throws -> DynamoDBStateStore {
        try DynamoDBStateStore(configuration: configuration())
    }

    /// One signed call of any DynamoDB operation, which must succeed; its answer.
    @discardableResult
    func call(_ operation: String, _ body: JSONValue) throws -> JSONValue {
        try Self.call(operation, body, at: endpoint, CurlSession())
    }

    /// Creates the table: partition key `pk`, on-demand capacity, TTL on `expiresAt`.
    fileprivate func createTable() throws {
        let session = try CurlSession()
        try Self.call(
            "CreateTable",
            [
                "TableName": .string(table), "BillingMode": "PAY_PER_REQUEST",
                "KeySchema": [["AttributeName": "pk", "KeyType": "HASH"]],
                "AttributeDefinitions": [["AttributeName": "pk", "AttributeType": "S"]],
            ], at: endpoint, session)
        try Self.call(
            "UpdateTimeToLive",
            ["TableName": .string(table), "TimeToLiveSpecification": ["Enabled": true, "AttributeName": "expiresAt"]],
            at: endpoint, session)
    }

    /// One signed DynamoDB call that must succeed.
    @discardableResult
    private static func call(_ operation: String, _ body: JSONValue, at endpoint: String, _ session: CurlSession) throws -> JSONValue {
        let bytes = body.serialized()
        let signed = SigV4Signer(credentials: credentials, region: region, service: "dynamodb").sign(
            SignableRequest(
                method: "POST", host: String(endpoint.dropFirst("http://".count)), path: "/",
                headers: [.init("Content-Type", "application/x-amz-json-1.0"), .init("X-Amz-Target", "DynamoDB_20120810.\(operation)")],
                body: bytes),
            at: .now())
        let response = try session.perform(
            HTTPRequest(
                method: .post, url: endpoint + "/", headers: signed.headers.map { HTTPHeader($0.name, $0.value) }, body: bytes,
                totalTimeout: .seconds(10)))
        try #require(response.status == 200, "\(operation): \(String(decoding: response.body, as: UTF8.self))")
        return try JSONValue(parsing: response.body)
    }
}

/// Starts moto's server for the suite it is attached to, creates the table, and stops the server afterwards.
struct MotoDynamoDBTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Without moto, a suite with both stores runs its memory cases only (see StoreKind.available).
        guard ExternalTool.motoServer.isAvailable else { return try await function() }
        let port = LocalServerProcess.freePort()
        let server: LocalServerProcess
        do {
            server = try LocalServerProcess(arguments: MotoServer.arguments(port: port), port: port)
        } catch {
            throw MotoMissing(detail: "\(error)")
        }
        defer { server.stop() }
        let moto = MotoDynamoDB(endpoint: "http://127.0.0.1:\(port)", table: "challenge-state")
        try moto.createTable()
        try await MotoDynamoDB.$current.withValue(moto, operation: function)
    }

    struct MotoMissing: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "moto's DynamoDB server could not start; install it with `pip install 'moto[server]'` (CI installs it). \(detail)"
        }
    }
}

extension Trait where Self == MotoDynamoDBTrait {
    /// Runs the suite with moto's DynamoDB server and a fresh table; see ``MotoDynamoDB/running()``.
    static var motoDynamoDB: Self { Self() }
}
