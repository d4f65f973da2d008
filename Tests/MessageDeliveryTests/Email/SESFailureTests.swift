import ChallengeFlows
import CurlHTTP
import ServiceClients
import TestSupport
import Testing

/// Deliveries against a scripted HTTP server on 127.0.0.1 (or nothing at all): which answers are retried, typed
/// errors, the time budget. The budget, retry and connection mechanics are the AWS pipeline's (AWSServiceClientTests).
/// Time bounds are generous: they prove the budget holds, not how fast anything is.
@Suite("SES delivery failures")
struct SESFailureTests {
    @Test func serverDownIsUnreachableAtOnce() throws {
        let port = LocalServerProcess.freePort()
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: "http://127.0.0.1:\(port)"))
        let start = ContinuousClock.now
        let error = SESFixtures.failure(of: delivery)
        #expect(ContinuousClock.now - start < .seconds(2))
        guard case .unreachable(let endpoint, let curlError, attempts: 1)? = error else {
            Issue.record("expected unreachable after one attempt, got \(String(describing: error))")
            return
        }
        #expect(endpoint == "http://127.0.0.1:\(port)")
        #expect(curlError.kind == .cannotConnect)
        #expect("\(error!)".hasPrefix("could not reach SES at http://127.0.0.1:\(port): "))
    }

    @Test(.requires(.python3)) func clientErrorIsTypedNotRetriedAndNeverShowsTheCode() throws {
        let server = try ScriptedAWSServer(.ses, ["400:BadRequestException"])
        defer { server.stop() }
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: server.endpoint))
        let error = SESFixtures.failure(of: delivery)
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 400)
        #expect(response.code == "BadRequestException")
        #expect(!response.isRetryable)
        // The scripted server echoes the request body, code included, in its message.
        #expect(response.message?.contains("[code]") == true)
        #expect(!"\(error!)".contains(SESFixtures.message.code))
        #expect("\(error!)".hasPrefix("SES refused the code email: HTTP 400 BadRequestException: scripted failure"))
        #expect(try server.requestClientPorts().count == 1)
    }

    /// A 5xx may come after the message went out: a second try could send it twice, so there is none.
    @Test(.requires(.python3)) func serverErrorIsReportedWithoutARetry() throws {
        let server = try ScriptedAWSServer(.ses, ["500"])
        defer { server.stop() }
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: server.endpoint))
        let start = ContinuousClock.now
        let error = SESFixtures.failure(of: delivery)
        #expect(ContinuousClock.now - start < .seconds(3))
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 500)
        #expect(try server.requestClientPorts().count == 1)
    }

    @Test(.requires(.python3), arguments: ["429:TooManyRequestsException", "400:ThrottlingException"])
    func transientFailureThenSuccess(first: String) throws {
        let server = try ScriptedAWSServer(.ses, [first, "200"])
        defer { server.stop() }
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: server.endpoint))
        let receipt = try delivery.send(SESFixtures.message)
        #expect(receipt.messageID == "scripted-2")
        #expect(receipt.attempts == 2)
    }

    @Test(.requires(.python3)) func slowServerEndsWithinTheBudget() throws {
        let server = try ScriptedAWSServer(.ses, ["200@10000"])
        defer { server.stop() }
        let budget = Duration.milliseconds(800)
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: server.endpoint, budget: budget))
        let start = ContinuousClock.now
        let error = SESFixtures.failure(of: delivery)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= budget - .milliseconds(50))
        #expect(elapsed < budget + .seconds(1))
        guard case .timedOut(budget: budget, attempts: 1)? = error else {
            Issue.record("expected a timeout after one attempt, got \(String(describing: error))")
            return
        }
        #expect("\(error!)" == "SES did not answer within the 800 ms delivery budget (1 attempt)")
    }
}
