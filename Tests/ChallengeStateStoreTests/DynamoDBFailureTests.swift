import ChallengeFlows
import CurlHTTP
import ServiceClients
import TestSupport
import Testing

/// ``DynamoDBStateStore`` against a scripted HTTP server on 127.0.0.1 (or nothing at all): typed errors, the time
/// budget, the kept-alive connection. Time bounds are generous: they prove the budget holds, not how fast anything is.
@Suite("DynamoDB state store failures")
struct DynamoDBFailureTests {
    static func store(endpoint: String, budget: Duration = .milliseconds(1000)) throws -> DynamoDBStateStore {
        try DynamoDBStateStore(
            configuration: DynamoDBConfiguration(
                region: "eu-west-1", credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "not-a-real-secret"),
                tableName: "challenge-state", endpoint: AWSEndpoint(url: endpoint)!, timeBudget: budget))
    }

    static let record = StateRecord(fields: ["seal": .string("secret-seal-value")], expiresAt: 2_000_000_000)

    @Test func nothingListeningIsUnreachableAtOnce() throws {
        let endpoint = "http://127.0.0.1:\(LocalServerProcess.freePort())"
        let store = try Self.store(endpoint: endpoint)
        let start = ContinuousClock.now
        #expect {
            _ = try store.read("k", now: 1)
        } throws: { error in
            guard case .unreachable(endpoint, let curlError) = error as? StateStoreError else { return false }
            return curlError.kind == .cannotConnect
                && "\(error)".hasPrefix("Could not reach DynamoDB at \"\(endpoint)\": HTTP transfer failed")
        }
        #expect(ContinuousClock.now - start < .milliseconds(1500))
    }

    @Test(.requires(.python3)) func slowServerEndsWithinTheBudget() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["200@3000"])
        defer { server.stop() }
        let budget = Duration.milliseconds(500)
        let store = try Self.store(endpoint: server.endpoint, budget: budget)
        let start = ContinuousClock.now
        #expect {
            _ = try store.write("k", Self.record, expectedVersion: nil, now: 1)
        } throws: { error in
            guard case .timedOut("PutItem", "challenge-state", budget) = error as? StateStoreError else { return false }
            return "\(error)".hasPrefix("DynamoDB did not answer \"PutItem\" on table \"challenge-state\" within the 500 ms budget")
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= budget - .milliseconds(50))
        #expect(elapsed < budget + .milliseconds(300))
    }

    @Test(.requires(.python3), arguments: [
        ("400:AccessDeniedException", "accessDenied"), ("400:UnrecognizedClientException", "accessDenied"),
        ("400:ProvisionedThroughputExceededException", "throttled"), ("400:ThrottlingException", "throttled"),
        ("500:InternalServerError", "serviceFailure"), ("503", "serviceFailure"),
        ("400:ResourceNotFoundException", "rejected"), ("400:ValidationException", "rejected"),
    ])
    func errorAnswersAreTyped(behaviour: String, expected: String) throws {
        let server = try ScriptedAWSServer(.dynamoDB, [behaviour])
        defer { server.stop() }
        let store = try Self.store(endpoint: server.endpoint)
        for operation in ["GetItem", "PutItem"] {
            do {
                if operation == "GetItem" {
                    _ = try store.read("k", now: 1)
                } else {
                    _ = try store.write("k", Self.record, expectedVersion: 3, now: 1)
                }
                Issue.record("\(operation) succeeded against \(behaviour)")
            } catch {
                let (kind, response) = Self.classify(error)
                #expect(kind == expected)
                #expect(response?.operation == operation)
                #expect(response?.status == Int(behaviour.prefix(3)))
                #expect(!"\(error)".contains("secret"))
            }
        }
    }

    @Test(.requires(.python3)) func accessDeniedSaysWhatToCheck() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["400:AccessDeniedException"])
        defer { server.stop() }
        #expect {
            _ = try Self.store(endpoint: server.endpoint).read("k", now: 1)
        } throws: { error in
            "\(error)" == "DynamoDB denied \"GetItem\" on table \"challenge-state\" (HTTP 400 AccessDeniedException: scripted "
                + "failure); check the credentials and the role's dynamodb:GetItem and dynamodb:PutItem permissions on the table."
        }
    }

    @Test(.requires(.python3)) func failedConditionIsALostRaceNotAnError() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["400:ConditionalCheckFailedException"])
        defer { server.stop() }
        #expect(try !Self.store(endpoint: server.endpoint).write("k", Self.record, expectedVersion: 7, now: 1).succeeded)
    }

    /// DynamoDB's messages may quote what a request carried (a key, a seal); logs get them without such values.
    @Test func messagesAreRedacted() throws {
        let key = String(repeating: "9f86d081", count: 8)
        let response = DynamoDBErrorResponse(
            operation: "PutItem", table: "challenge-state", status: 400, code: "ValidationException",
            message: "One or more parameter values were invalid: key pk=\(key) seal EMAIL_CODE:0:1763800180:\(key):fac7afe6 in account 123456789012")
        let text = "\(StateStoreError.rejected(response))"
        #expect(!text.contains("9f86d081"), "\(text)")
        #expect(text.contains("One or more parameter values were invalid: key … seal EMAIL_CODE:0:1763800180:…:fac7afe6"), "\(text)")
        #expect(text.contains("account 123456789012"), "account numbers stay readable: \(text)")
    }

    @Test(.requires(.python3)) func callsShareOneConnection() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["200"])
        defer { server.stop() }
        let store = try Self.store(endpoint: server.endpoint)
        #expect(try store.read("k", now: 1) == nil)
        #expect(try store.write("k", Self.record, expectedVersion: nil, now: 1).succeeded)
        #expect(try store.read("k", now: 1) == nil)
        let ports = try server.requestClientPorts()
        #expect(ports.count == 3)
        #expect(Set(ports).count == 1)
    }

    private static func classify(_ error: any Error) -> (String, DynamoDBErrorResponse?) {
        switch error as? StateStoreError {
        case .accessDenied(let response)?: ("accessDenied", response)
        case .throttled(let response)?: ("throttled", response)
        case .serviceFailure(let response)?: ("serviceFailure", response)
        case .rejected(let response)?: ("rejected", response)
        default: ("\(error)", nil)
        }
    }
}
