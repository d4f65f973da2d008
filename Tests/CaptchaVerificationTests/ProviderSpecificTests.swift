import ServiceClients
import TestSupport
import Testing

/// What only some providers do: Turnstile's idempotent re-check, actions, reCAPTCHA's score, hCaptcha's site key.
@Suite("provider-specific checks")
struct ProviderSpecificTests {
    @Test(.requires(.python3)) func turnstileRechecksATokenWithTheSameIdempotencyKey() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(.turnstile, standIn: standIn))
        let token = Fixtures.token("pass")
        let key = CaptchaIdempotencyKey.derive(challenge: "nonce-7", token: token)
        #expect(client.verify(token: token, idempotencyKey: key, now: Fixtures.now) == .passed)
        #expect(client.verify(token: token, idempotencyKey: key, now: Fixtures.now) == .passed)
        let otherKey = CaptchaIdempotencyKey.derive(challenge: "nonce-8", token: token)
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: otherKey, now: Fixtures.now), token: token)
        #expect(rejection == .providerError(codes: ["timeout-or-duplicate"]))
        #expect(try standIn.receivedRequests().map { $0.fields["idempotency_key"] } == [key, key, otherKey])
    }

    @Test(.requires(.python3), arguments: [CaptchaProvider.recaptcha, .hcaptcha])
    func othersNeverSendAnIdempotencyKeySoASecondUseIsADuplicate(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("pass")
        let key = CaptchaIdempotencyKey.derive(challenge: "nonce-7", token: token)
        #expect(client.verify(token: token, idempotencyKey: key, now: Fixtures.now) == .passed)
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: key, now: Fixtures.now), token: token)
        #expect(rejection == .providerError(codes: ["timeout-or-duplicate"]))
        #expect(try standIn.receivedRequests().allSatisfy { $0.fields["idempotency_key"] == nil })
    }

    @Test(.requires(.python3), arguments: [CaptchaProvider.turnstile, .recaptcha])
    func wrongActionIsRejected(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("wrong-action")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .actionMismatch(expected: "login", received: "signup"))
        #expect(rejection?.description == "The CAPTCHA's action is \"signup\", not \"login\".")
    }

    @Test(.requires(.python3)) func recaptchaLowScoreIsRejected() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(.recaptcha, standIn: standIn))
        let token = Fixtures.token("low-score")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .scoreTooLow(score: 0.2, minimum: 0.5))
        #expect(rejection?.description == "The reCAPTCHA score 0.2 is below the minimum of 0.5.")
    }

    @Test(.requires(.python3)) func recaptchaScoreAtTheMinimumPasses() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        var configuration = Fixtures.configuration(.recaptcha, standIn: standIn)
        configuration.minimumScore = 0.2
        let client = try SiteverifyClient(configuration: configuration)
        #expect(client.verify(token: Fixtures.token("low-score"), idempotencyKey: nil, now: Fixtures.now) == .passed)
    }

    @Test(.requires(.python3)) func recaptchaV2PassesWithoutScoreOrActionWhenNoActionIsConfigured() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        var configuration = Fixtures.configuration(.recaptcha, standIn: standIn)
        configuration.action = nil
        let client = try SiteverifyClient(configuration: configuration)
        #expect(client.verify(token: Fixtures.token("pass-v2"), idempotencyKey: nil, now: Fixtures.now) == .passed)
    }

    @Test(.requires(.python3)) func recaptchaV2TokenFailsWhenAnActionIsConfigured() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(.recaptcha, standIn: standIn))
        let token = Fixtures.token("pass-v2")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .actionMismatch(expected: "login", received: nil))
        #expect(rejection?.description == "The CAPTCHA service reported no action; expected \"login\".")
    }

    @Test(.requires(.python3)) func hcaptchaSendsTheSiteKeyAndTheStandInChecksIt() throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        var configuration = Fixtures.configuration(.hcaptcha, standIn: standIn)
        configuration.siteKey = "10000000-ffff-ffff-ffff-000000000001"
        let client = try SiteverifyClient(configuration: configuration)
        let token = Fixtures.token("pass")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .providerError(codes: ["sitekey-secret-mismatch"]))
        #expect(try standIn.receivedRequests().first?.fields["sitekey"] == "10000000-ffff-ffff-ffff-000000000001")
    }
}
