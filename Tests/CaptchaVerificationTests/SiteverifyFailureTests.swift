import ServiceClients
import TestSupport
import Testing

/// Answers that are not answers, or none at all: each a rejection, within the time budget.
@Suite("siteverify failures, for each provider")
struct SiteverifyFailureTests {
    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func serverErrorIsAnHTTPStatus(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("500")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .httpStatus(500))
        #expect(rejection?.description == "The CAPTCHA service answered with HTTP status 500.")
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func slowAnswerEndsWithinTheBudget(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let budget = Duration.milliseconds(500)
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn, budget: budget))
        let token = Fixtures.token("slow")
        let start = ContinuousClock.now
        let verdict = client.verify(token: token, idempotencyKey: nil, now: Fixtures.now)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= budget - .milliseconds(50))
        #expect(elapsed < budget + .milliseconds(300))
        let rejection = Fixtures.rejection(verdict, token: token)
        #expect(rejection == .timedOut(budget: budget))
        #expect(rejection?.description == "The CAPTCHA service did not answer within the 500 ms budget.")
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func bodyThatIsNotJSONIsMalformed(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("garbage")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        guard case .malformedResponse(let reason)? = rejection else {
            Issue.record("expected a malformed answer, got \(String(describing: rejection))")
            return
        }
        #expect(reason.hasSuffix("-byte body is not a JSON object"))
    }

    @Test(arguments: CaptchaProvider.allCases)
    func nothingListeningIsUnreachableAtOnce(provider: CaptchaProvider) throws {
        let endpoint = "http://127.0.0.1:\(LocalServerProcess.freePort())/\(provider.rawValue)/siteverify"
        let configuration = CaptchaProviderConfiguration(
            provider: provider, siteKey: Fixtures.siteKey, secret: CaptchaSecret(Fixtures.secret),
            allowedHostnames: ["login.example.com"], endpoint: endpoint)
        let client = try SiteverifyClient(configuration: configuration)
        let token = Fixtures.token("pass")
        let start = ContinuousClock.now
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(ContinuousClock.now - start < .seconds(1))
        guard case .unreachable(let reportedEndpoint, _)? = rejection else {
            Issue.record("expected unreachable, got \(String(describing: rejection))")
            return
        }
        #expect(reportedEndpoint == endpoint)
        let description = rejection?.description ?? ""
        #expect(description.hasPrefix("Could not reach the CAPTCHA service at \"\(endpoint)\": "))
        #expect(description.hasSuffix(".") && !description.hasSuffix(".."))
    }

    @Test(.requires(.python3)) func emptyOrHugeTokenIsNotSent() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(.turnstile, standIn: standIn))
        #expect(client.verify(token: "", idempotencyKey: nil, now: Fixtures.now) == .rejected(.unusableToken(length: 0)))
        let huge = String(repeating: "a", count: SiteverifyClient.maximumTokenLength + 1)
        let rejection = Fixtures.rejection(client.verify(token: huge, idempotencyKey: nil, now: Fixtures.now), token: huge)
        #expect(rejection == .unusableToken(length: SiteverifyClient.maximumTokenLength + 1))
        #expect(rejection?.description == "The CAPTCHA token is 16385 bytes long, longer than any provider issues, so it was not sent.")
        #expect(try standIn.receivedRequests().isEmpty)
    }
}
