import ServiceClients
import TestSupport
import Testing

/// What every provider's answer must show to pass, over real HTTP against the stand-in.
@Suite("siteverify answers, for each provider")
struct SiteverifyAnswerTests {
    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func correctTokenPassesAndTheFormCarriesWhatTheProviderTakes(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("pass")
        let key = CaptchaIdempotencyKey.derive(challenge: "nonce-1", token: token)
        #expect(client.verify(token: token, idempotencyKey: key, remoteIP: "203.0.113.7", now: Fixtures.now).isPassed)

        let requests = try standIn.receivedRequests()
        try #require(requests.count == 1)
        #expect(requests[0].path == "/\(provider.rawValue)/siteverify")
        #expect(requests[0].contentType == "application/x-www-form-urlencoded")
        var expected = ["secret": Fixtures.secret, "response": token, "remoteip": "203.0.113.7"]
        if provider == .hcaptcha { expected["sitekey"] = Fixtures.siteKey }
        if provider == .turnstile { expected["idempotency_key"] = key }
        #expect(requests[0].fields == expected)
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func timestampWithOffsetAndFractionPasses(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        #expect(client.verify(token: Fixtures.token("offset"), idempotencyKey: nil, now: Fixtures.now) == .passed)
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func wrongHostnameIsRejected(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("wrong-host")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .hostnameNotAllowed("evil.example.net"))
        #expect(rejection?.description == "The CAPTCHA was solved on \"evil.example.net\", which is not an allowed hostname.")
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func staleChallengeIsRejected(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("stale")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        guard case .stale(let age, let lifetime)? = rejection else {
            Issue.record("expected a stale rejection, got \(String(describing: rejection))")
            return
        }
        #expect(lifetime == provider.tokenLifetimeSeconds)
        #expect((lifetime + 29...lifetime + 32).contains(age))
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func challengeFromTheFutureIsRejected(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("future")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        guard case .timestampAhead(let seconds)? = rejection else {
            Issue.record("expected a timestamp ahead, got \(String(describing: rejection))")
            return
        }
        #expect((598...601).contains(seconds))
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func missingTimestampIsRejected(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("no-ts")
        #expect(Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token) == .missingTimestamp)
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func secondUseOfATokenIsADuplicate(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("pass")
        #expect(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now) == .passed)
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .providerError(codes: ["timeout-or-duplicate"]))
        #expect(rejection?.description == "The CAPTCHA service refused the token with error codes \"timeout-or-duplicate\".")
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func providerErrorCodesAreReported(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let token = Fixtures.token("error")
        let rejection = Fixtures.rejection(client.verify(token: token, idempotencyKey: nil, now: Fixtures.now), token: token)
        #expect(rejection == .providerError(codes: ["invalid-input-response"]))
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func wrongSecretIsReportedWithoutShowingIt(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let wrongSecret = "0x4AAAAAAAWrongSecretValue"
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn, secret: wrongSecret))
        let token = Fixtures.token("pass")
        let verdict = client.verify(token: token, idempotencyKey: nil, now: Fixtures.now)
        #expect(Fixtures.rejection(verdict, token: token, secret: wrongSecret) == .providerError(codes: ["invalid-input-secret"]))
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func echoedTokenAndSecretAreMasked(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        let leak = Fixtures.token("leak")
        #expect(
            Fixtures.rejection(client.verify(token: leak, idempotencyKey: nil, now: Fixtures.now), token: leak)
                == .providerError(codes: ["bad-request", "token [token]", "secret [secret]"]))
        let leakHost = Fixtures.token("leak-host")
        #expect(
            Fixtures.rejection(client.verify(token: leakHost, idempotencyKey: nil, now: Fixtures.now), token: leakHost)
                == .hostnameNotAllowed("x[token][secret]"))
    }

    @Test(.requires(.python3), arguments: CaptchaProvider.allCases)
    func checksShareOneConnection(provider: CaptchaProvider) throws {
        let standIn = try SiteverifyStandIn()
        defer { standIn.stop() }
        let client = try SiteverifyClient(configuration: Fixtures.configuration(provider, standIn: standIn))
        for _ in 0..<3 {
            #expect(client.verify(token: Fixtures.token("pass"), idempotencyKey: nil, now: Fixtures.now) == .passed)
        }
        let ports = try standIn.receivedRequests().map(\.clientPort)
        #expect(ports.count == 3)
        #expect(Set(ports).count == 1)
    }
}
