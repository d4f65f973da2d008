import CurlHTTP
import ServiceClients
import TestSupport
import Testing

/// The request pipeline every AWS caller shares, against a scripted server on 127.0.0.1 (or nothing at all): time
/// budgets, the one retry, the kept connection. Time bounds are generous: they prove the budget holds, not how fast
/// anything is.
@Suite("AWS request pipeline")
struct AWSServiceClientTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")

    static func client(_ endpoint: String) throws -> AWSServiceClient {
        try AWSServiceClient(
            service: "dynamodb", region: "eu-west-1", credentials: credentials, endpoint: try #require(AWSEndpoint(url: endpoint)),
            caFile: nil)
    }

    static func post(
        _ client: AWSServiceClient, budget: Duration = .seconds(3), retrying: @escaping (HTTPResponse) -> Bool = { $0.status == 429 }
    ) -> BudgetedOutcome {
        client.post(
            headers: [.init("Content-Type", "application/x-amz-json-1.0")], body: Array("{}".utf8), budget: budget,
            connectTimeout: .seconds(1), isRetryable: retrying)
    }

    @Test func nothingListeningFailsAtOnce() throws {
        let client = try Self.client("http://127.0.0.1:\(LocalServerProcess.freePort())")
        let start = ContinuousClock.now
        guard case .failed(let error, attempts: 1) = Self.post(client) else { Issue.record("expected a failure"); return }
        #expect(error.kind == .cannotConnect)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test(.requires(.python3)) func answersTheCallerDoesNotRetryAreFinal() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["500"])
        defer { server.stop() }
        guard case .refused(let response, attempts: 1) = Self.post(try Self.client(server.endpoint)) else {
            Issue.record("expected one refusal")
            return
        }
        #expect(response.status == 500)
        #expect(try server.requestClientPorts().count == 1)
    }

    @Test(.requires(.python3)) func aRetryableAnswerIsSentOnceMore() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["429:ThrottlingException", "200"])
        defer { server.stop() }
        guard case .succeeded(_, attempts: 2) = Self.post(try Self.client(server.endpoint)) else {
            Issue.record("expected success on the second attempt")
            return
        }
        let again = try ScriptedAWSServer(.dynamoDB, ["429:ThrottlingException"])
        defer { again.stop() }
        guard case .refused(_, attempts: 2) = Self.post(try Self.client(again.endpoint)) else {
            Issue.record("expected two attempts at most")
            return
        }
    }

    @Test(.requires(.python3)) func noRetryWhenTooLittleBudgetRemains() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["429:ThrottlingException@400", "200"])
        defer { server.stop() }
        let budget = Duration.milliseconds(700)
        let start = ContinuousClock.now
        guard case .refused(let response, attempts: 1) = Self.post(try Self.client(server.endpoint), budget: budget) else {
            Issue.record("expected one refusal")
            return
        }
        #expect(response.status == 429)
        #expect(ContinuousClock.now - start < budget + .seconds(1))
        #expect(try server.requestClientPorts().count == 1)
    }

    @Test(.requires(.python3)) func aSlowServerEndsWithinTheBudget() throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["200@10000"])
        defer { server.stop() }
        let budget = Duration.milliseconds(800)
        let start = ContinuousClock.now
        let outcome = Self.post(try Self.client(server.endpoint), budget: budget)
        guard case .timedOut(attempts: 1) = outcome else {
            Issue.record("expected a timeout after one attempt, got \(outcome)")
            return
        }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= budget - .milliseconds(50))
        #expect(elapsed < budget + .seconds(1))
    }

    /// Calls from several threads take turns on one connection.
    @Test(.requires(.python3)) func callsShareOneConnection() async throws {
        let server = try ScriptedAWSServer(.dynamoDB, ["200"])
        defer { server.stop() }
        let client = try Self.client(server.endpoint)
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    if case .succeeded = Self.post(client) { true } else { false }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == 6)
        let ports = try server.requestClientPorts()
        #expect(ports.count == 6)
        #expect(Set(ports).count == 1)
    }
}
