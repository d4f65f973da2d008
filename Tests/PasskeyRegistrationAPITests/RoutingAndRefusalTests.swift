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
        ["sub": "sub-jane", "iss": Fixture.issuer],
        ["username": "jane", "iss": Fixture.issuer],
        ["sub": "", "username": "jane", "iss": Fixture.issuer],
    ])
    func withoutSubAndUsernameClaimsTheCallerIsUnauthorized(_ claims: [String: String]) {
        let response = APIHarness().call("GET", "/passkeys", claims: claims)
        #expect(response.statusCode == 401)
        #expect(response.message?.contains("no authorizer claims sub and username") == true, "\(response.message ?? "")")
    }

    @Test func anIDTokenIsNotEnough() {
        var claims = Fixture.claims()
        claims["token_use"] = "id"
        let response = APIHarness().call("GET", "/passkeys", claims: claims)
        #expect(response.statusCode == 401)
        #expect(response.message?.contains("not an access token") == true)
    }

    @Test func thePoolComesFromTheIssuerOrElseTheConfiguration() {
        var claims = Fixture.claims()
        claims["iss"] = "https://issuer.example.com/"
        #expect(APIHarness().call("GET", "/passkeys", claims: claims).statusCode == 401)
        let configured = PasskeyRegistrationAPI(
            settings: Fixture.settings, store: MemoryStateStore(), recordKey: Fixture.recordKey, userPoolID: Fixture.poolID,
            clock: { Fixture.now })
        #expect(configured.handle(Fixture.event("GET", "/passkeys", claims: claims)).response.statusCode == 200)
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
        let api = PasskeyRegistrationAPI(settings: Fixture.settings, store: nil, recordKey: Fixture.recordKey, clock: { Fixture.now })
        let response = api.handle(Fixture.event("GET", "/passkeys")).response
        #expect(response.statusCode == 503)
        #expect(response.message?.contains("STATE_STORE") == true)
    }

    @Test func aFailingStoreIsA503NamingTheRequestWithTheDetailForTheLog() {
        let api = PasskeyRegistrationAPI(settings: Fixture.settings, store: FailingStore(), recordKey: Fixture.recordKey, clock: { Fixture.now })
        let result = api.handle(Fixture.event("POST", "/passkeys/registration/options", body: "{}"))
        #expect(result.response.statusCode == 503)
        #expect(result.response.message?.contains("(request request-1)") == true)
        #expect(result.response.message?.contains("GetItem") == false)
        #expect(result.logDetail?.contains("the test's store always fails") == true)
        #expect(result.summary.hasPrefix("POST /passkeys/registration/options → 503"))
    }
}
