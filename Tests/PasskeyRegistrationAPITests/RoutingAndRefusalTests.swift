import ChallengeCrypto
import ChallengeFlows
import CognitoTriggers
import LosslessJSON
import ServiceClients
import Testing

/// Who may call, which routes exist, and the 4xx every kind of bad input gets: always a JSON message, never an error.
@Suite struct RoutingAndRefusalTests {
    @Test func withoutSettingsEveryRouteSaysPasskeysAreNotConfigured() {
        let harness = APIHarness(settings: nil)
        for (method, path) in [("GET", "/passkeys"), ("POST", "/passkeys/registration/options"), ("DELETE", "/passkeys/AQID")] {
            let response = harness.call(method, path, body: "{}")
            #expect(response.statusCode == 404)
            #expect(response.message?.hasPrefix("passkeys are not configured (set PASSKEY_RP_ID") == true, "\(response.message ?? "")")
        }
    }

    @Test(arguments: [
        [String: String](),
        ["sub": "sub-jane", "iss": Fixture.issuer, "token_use": "access", "auth_time": "1763799990"],
        ["username": "jane", "iss": Fixture.issuer, "token_use": "access", "auth_time": "1763799990"],
    ])
    func aTokenThatNamesNoUserIsUnauthorized(_ claims: [String: String]) {
        let response = APIHarness().call("GET", "/passkeys", claims: claims)
        #expect(response.statusCode == 401)
        #expect(response.message?.contains("The access token was refused") == true, "\(response.message ?? "")")
    }

    @Test func anIDTokenIsNotEnough() {
        var claims = Fixture.claims()
        claims["token_use"] = "id"
        let response = APIHarness().call("GET", "/passkeys", claims: claims)
        #expect(response.statusCode == 401)
        #expect(response.message?.contains("not an access token") == true)
    }

    @Test func aTokenWhoseIssuerNamesNoPoolIsUnauthorized() {
        var claims = Fixture.claims()
        claims["iss"] = "https://issuer.example.com/"
        #expect(APIHarness().call("GET", "/passkeys", claims: claims).statusCode == 401)
    }

    /// Anyone allowed to invoke the function can write the authorizer's claims: they name nobody. Claims of the
    /// victim, with no token, a made-up token, or another user's live token, never reach the victim's records.
    @Test func forgedAuthorizerClaimsAuthorizeNothing() throws {
        let harness = APIHarness()
        let victim = Fixture.claims(sub: "sub-victim", username: "victim")
        func event(_ method: String, _ path: String, body: String = "", authorization: String?) -> HTTPAPIEvent {
            HTTPAPIEvent(
                routeKey: "\(method) \(path)", method: method, rawPath: path,
                headers: authorization.map { ["authorization": $0] } ?? [:], body: Array(body.utf8), requestID: "forged",
                claims: victim)
        }
        let noToken = harness.api.handle(event("POST", "/passkeys/registration/options", body: "{}", authorization: nil)).response
        #expect(noToken.statusCode == 401)
        #expect(noToken.message?.contains("no bearer token") == true, "\(noToken.message ?? "")")
        let madeUp = Fixture.tokens.issue(victim)
        Fixture.tokens.revoke(madeUp)  // a token of the right shape that Cognito never issued (or no longer takes)
        #expect(harness.api.handle(event("POST", "/passkeys/registration/options", body: "{}", authorization: "Bearer \(madeUp)")).response.statusCode == 401)
        // The attacker's own live token with the victim's claims beside it: the API acts for the attacker.
        let own = harness.api.handle(event("POST", "/passkeys/registration/options", body: "{}", authorization: "Bearer \(Fixture.tokens.issue(Fixture.claims(sub: "sub-mallory", username: "mallory")))")).response
        #expect(own.statusCode == 200)
        #expect(own["user"]?.objectValue?["name"] == "mallory")
        #expect(try harness.record(kind: "PASSKEY", sub: "sub-victim") == nil)
    }

    /// A stolen token adds no passkey once its sign-in is older than the limit; it may still list, rename and delete.
    @Test func addingAPasskeyNeedsARecentSignIn() throws {
        let harness = APIHarness()
        let stale = Fixture.claims(authTime: Fixture.now - PasskeyRegistrationAPI.defaultMaximumSignInAge - 1)
        for path in ["/passkeys/registration/options", "/passkeys/registration"] {
            let response = harness.call("POST", path, body: "{}", claims: stale)
            #expect(response.statusCode == 403)
            #expect(response.message?.contains("Adding a passkey needs a recent sign-in") == true, "\(response.message ?? "")")
        }
        #expect(harness.call("GET", "/passkeys", claims: stale).statusCode == 200)
        let fresh = Fixture.claims(authTime: Fixture.now - PasskeyRegistrationAPI.defaultMaximumSignInAge)
        #expect(harness.call("POST", "/passkeys/registration/options", body: "{}", claims: fresh).statusCode == 200)
    }

    @Test func aRevokedTokenIsRefusedOnEveryRoute() {
        let harness = APIHarness()
        let token = Fixture.tokens.issue(Fixture.claims())
        func call(_ method: String, _ path: String) -> HTTPAPIResponse {
            harness.api.handle(HTTPAPIEvent(
                routeKey: "\(method) \(path)", method: method, rawPath: path, headers: ["authorization": "Bearer \(token)"],
                body: Array("{}".utf8), requestID: "r", claims: Fixture.claims())).response
        }
        #expect(call("GET", "/passkeys").statusCode == 200)
        Fixture.tokens.revoke(token)
        for (method, path) in [("GET", "/passkeys"), ("POST", "/passkeys/registration/options"), ("DELETE", "/passkeys/AQID")] {
            #expect(call(method, path).statusCode == 401)
        }
    }

    @Test func withoutACognitoEndpointEveryRequestIsRefused() {
        let api = PasskeyRegistrationAPI(
            settings: Fixture.settings, store: MemoryStateStore(), recordKey: Fixture.recordKey, tokens: nil, clock: { Fixture.now })
        let response = api.handle(Fixture.event("GET", "/passkeys")).response
        #expect(response.statusCode == 503)
        #expect(response.message?.contains("COGNITO_IDP_ENDPOINT") == true)
    }

    @Test(arguments: [("GET", "/"), ("GET", "/passkey"), ("POST", "/passkeys/registration/options/more"), ("GET", "/other/passkeys")])
    func unknownRoutesGetA404ListingTheRoutes(_ method: String, _ path: String) {
        let response = APIHarness().call(method, path)
        #expect(response.statusCode == 404)
        #expect(response.message?.contains("There is no \(method) \(path) here") == true, "\(response.message ?? "")")
        #expect(response.message?.contains("POST /passkeys/registration/options") == true)
    }

    @Test(arguments: [
        ("POST", "/passkeys", "GET"), ("GET", "/passkeys/registration/options", "POST"), ("PUT", "/passkeys/registration", "POST"),
        ("GET", "/passkeys/AQID", "PATCH, DELETE"),
        // A literal segment before a path parameter, as API Gateway matches: not a delete of passkey "registration".
        ("DELETE", "/passkeys/registration", "POST"),
    ])
    func aWrongMethodGetsA405WithAllow(_ method: String, _ path: String, _ allowed: String) {
        let response = APIHarness().call(method, path, body: "{}")
        #expect(response.statusCode == 405)
        #expect(response.headers["allow"] == allowed)
        #expect(response.message?.contains("use \(allowed)") == true)
    }

    @Test func aNamedStagePrefixIsNotPartOfTheRoute() {
        let harness = APIHarness()
        let response = harness.api.handle(Fixture.event("GET", "/prod/passkeys", stage: "prod")).response
        #expect(response.statusCode == 200)
        #expect(response["passkeys"] == [])
    }

    @Test(arguments: [
        ("[]", "a JSON array"), ("{", "not JSON"), ("\"{}\"", "a JSON string"),
    ])
    func optionsRefuseABodyThatIsNotAnObject(_ body: String, _ fragment: String) {
        let response = APIHarness().call("POST", "/passkeys/registration/options", body: body)
        #expect(response.statusCode == 400)
        #expect(response.message?.contains(fragment) == true, "\(response.message ?? "")")
    }

    @Test(arguments: [
        ("", "no body"), ("not json", "not JSON"), ("[1]", "a JSON array"),
        (#"{"type": "public-key"}"#, "not a RegistrationResponseJSON"),
        (#"{"id": "AQID", "response": {}, "name": 7}"#, "\"name\" is a JSON number"),
        (#"{"id": "AQID", "response": {}}"#, "No registration is in progress"),
    ])
    func registrationRefusesBadBodies(_ body: String, _ fragment: String) {
        let response = APIHarness().call("POST", "/passkeys/registration", body: body)
        #expect(response.statusCode == 400)
        #expect(response.message?.contains(fragment) == true, "\(response.message ?? "")")
    }

    @Test(arguments: [
        ("AQID", "", "no body"), ("AQID", "{}", "needs a \"name\""), ("AQID", #"{"name": ""}"#, "is empty"),
        ("AQID", #"{"name": "   "}"#, "is empty"), ("AQID", #"{"name": ["a"]}"#, "is a JSON array"),
        ("AQID", #"{"name": "a\nb"}"#, "control characters"),
        ("AQID", "{\"name\": \"\(String(repeating: "x", count: 65))\"}", "has 65 characters; the most is 64"),
        ("not+base64", #"{"name": "Laptop"}"#, "is not a passkey id"), ("AQI=", #"{"name": "Laptop"}"#, "is not a passkey id"),
    ])
    func renameRefusesBadInput(_ id: String, _ body: String, _ fragment: String) {
        let response = APIHarness().call("PATCH", "/passkeys/\(id)", body: body)
        #expect(response.statusCode == 400)
        #expect(response.message?.contains(fragment) == true, "\(response.message ?? "")")
    }

    @Test func deleteRefusesAnIDThatIsNotBase64URL() {
        let response = APIHarness().call("DELETE", "/passkeys/a%2Fb")
        #expect(response.statusCode == 400)
        #expect(response.message?.contains("base64url") == true)
    }

    @Test func aCallerWithoutPasskeysListsNoneAndCannotTouchAnyID() {
        let harness = APIHarness()
        #expect(harness.call("GET", "/passkeys")["passkeys"] == [])
        let rename = harness.call("PATCH", "/passkeys/AQID", body: #"{"name": "Laptop"}"#)
        #expect(rename.statusCode == 404)
        #expect(rename.message == "You have no passkey with id AQID; GET /passkeys lists yours.")
        #expect(harness.call("DELETE", "/passkeys/AQID").statusCode == 404)
    }

    @Test func aBodyOverTheLimitGetsA413() {
        let body = "{\"name\": \"\(String(repeating: "x", count: PasskeyRegistrationAPI.maximumBodySize))\"}"
        #expect(APIHarness().call("PATCH", "/passkeys/AQID", body: body).statusCode == 413)
    }

    @Test func withoutAStoreTheAPISaysWhichSettingIsMissing() {
        let api = PasskeyRegistrationAPI(settings: Fixture.settings, store: nil, recordKey: Fixture.recordKey, tokens: Fixture.tokens, clock: { Fixture.now })
        let response = api.handle(Fixture.event("GET", "/passkeys")).response
        #expect(response.statusCode == 503)
        #expect(response.message?.contains("STATE_STORE") == true)
    }

    @Test func aFailingStoreIsA503NamingTheRequestWithTheDetailForTheLog() {
        let api = PasskeyRegistrationAPI(settings: Fixture.settings, store: FailingStore(), recordKey: Fixture.recordKey, tokens: Fixture.tokens, clock: { Fixture.now })
        let result = api.handle(Fixture.event("POST", "/passkeys/registration/options", body: "{}"))
        #expect(result.response.statusCode == 503)
        #expect(result.response.message?.contains("(request request-1)") == true)
        #expect(result.response.message?.contains("GetItem") == false)
        #expect(result.logDetail?.contains("the test's store always fails") == true)
        #expect(result.summary.hasPrefix("POST /passkeys/registration/options → 503"))
    }
}
