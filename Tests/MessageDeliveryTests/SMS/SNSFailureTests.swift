import ChallengeFlows
import CurlHTTP
import ServiceClients
import TestSupport
import Testing

/// Deliveries against a scripted HTTP server on 127.0.0.1 (or nothing at all; the budget, retry and connection
/// mechanics are the AWS pipeline's, tested in AWSServiceClientTests): refusals, which answers are retried, typed errors,
/// time budget. Time bounds are generous: they prove the budget holds, not how fast anything is.
@Suite("SNS delivery failures")
struct SNSFailureTests {
    @Test(.requires(.python3), arguments: ["15555550100", "+1555", "+1234567890123456", "+0155555501", "+1 555 555 0100", "+1555555010a", "", "jane@example.com"])
    func notE164IsRefusedWithoutARequest(number: String) throws {
        let server = try ScriptedAWSServer(.sns, ["200"])
        defer { server.stop() }
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint))
        let error = SNSFixtures.failure(of: delivery, to: number)
        guard case .invalidPhoneNumber(number.count)? = error else {
            Issue.record("expected the number to be refused, got \(String(describing: error))")
            return
        }
        #expect(error?.attempts == 0)
        #expect("\(error!)".contains("(\(number.count) characters) is not in E.164 form"))
        // The error reaches the log: it never holds the number.
        #expect(number.count < 5 || !"\(error!)".contains(number))
        #expect(try server.requestClientPorts().isEmpty)
    }

    @Test(.requires(.python3), arguments: ["+15555550100", "+44207946000", "+491701234567890"])
    func e164NumbersAreSent(number: String) throws {
        let server = try ScriptedAWSServer(.sns, ["200"])
        defer { server.stop() }
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint))
        #expect(try delivery.send(code: SNSFixtures.code, to: number, validForSeconds: 300).messageID == "scripted-1")
    }

    @Test func serverDownIsUnreachableAtOnce() throws {
        let port = LocalServerProcess.freePort()
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: "http://127.0.0.1:\(port)"))
        let start = ContinuousClock.now
        let error = SNSFixtures.failure(of: delivery)
        #expect(ContinuousClock.now - start < .seconds(1))
        guard case .unreachable(let endpoint, let curlError, attempts: 1)? = error else {
            Issue.record("expected unreachable after one attempt, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "http://127.0.0.1:\(port)")
        #expect(curlError.kind == .cannotConnect)
        #expect("\(error!)".hasPrefix("Could not reach SNS at http://127.0.0.1:\(port): "))
    }

    @Test(.requires(.python3)) func xmlErrorIsTypedNotRetriedAndNeverShowsTheCode() throws {
        let server = try ScriptedAWSServer(.sns, ["400:InvalidParameter"])
        defer { server.stop() }
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint))
        let error = SNSFixtures.failure(of: delivery)
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 400)
        #expect(response.type == "Sender")
        #expect(response.code == "InvalidParameter")
        #expect(!response.isRetryable)
        // The scripted server echoes the request body, code included, in its message; entities are decoded.
        #expect(response.message?.hasPrefix("scripted failure for request Action=Publish&") == true)
        #expect(response.message?.contains("[code]") == true)
        #expect(!"\(error!)".contains(SNSFixtures.code))
        #expect("\(error!)".hasPrefix("SNS refused the code SMS: HTTP 400 InvalidParameter: scripted failure for request"))
        #expect(try server.requestClientPorts().count == 1)
    }

    /// A 5xx may come after the message went out: a second try could send it twice, so there is none.
    @Test(.requires(.python3)) func serverErrorIsReportedWithoutARetry() throws {
        let server = try ScriptedAWSServer(.sns, ["500"])
        defer { server.stop() }
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint))
        let start = ContinuousClock.now
        let error = SNSFixtures.failure(of: delivery)
        #expect(ContinuousClock.now - start < .seconds(3))
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 500)
        #expect(response.type == "Receiver")
        #expect(response.code == "InternalError")
        #expect("\(error!)".hasSuffix("(1 attempt)."))
        #expect(try server.requestClientPorts().count == 1)
    }

    @Test(.requires(.python3), arguments: ["429:Throttled", "400:Throttling"])
    func transientFailureThenSuccess(first: String) throws {
        let server = try ScriptedAWSServer(.sns, [first, "200"])
        defer { server.stop() }
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint))
        let receipt = try delivery.send(code: SNSFixtures.code, to: SNSFixtures.phoneNumber, validForSeconds: 300)
        #expect(receipt.messageID == "scripted-2")
        #expect(receipt.attempts == 2)
    }

    @Test(.requires(.python3)) func slowServerEndsWithinTheBudget() throws {
        let server = try ScriptedAWSServer(.sns, ["200@10000"])
        defer { server.stop() }
        let budget = Duration.milliseconds(800)
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: server.endpoint, budget: budget))
        let start = ContinuousClock.now
        let error = SNSFixtures.failure(of: delivery)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= budget - .milliseconds(50))
        #expect(elapsed < budget + .seconds(1))
        guard case .timedOut(budget: budget, attempts: 1)? = error else {
            Issue.record("expected a timeout after one attempt, got \(String(describing: error))")
            return
        }
        #expect("\(error!)" == "SNS did not answer within the 800 ms delivery budget (1 attempt).")
    }
}
