import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// A passkey registered through the registration API signs in through the passkey step, over one store: the API
/// and the step agree on the record's key (the pool from the token's issuer, the user's `sub`) and its fields.
@Suite struct PasskeyRegistrationThenSignInTests {
    static let origin = "http://localhost:5173"

    let store = MemoryStateStore()
    let handler: CognitoTriggerHandler
    let api: PasskeyRegistrationAPI
    /// The Create event of `jane` (`sub` 5f1c7e2a-…, pool us-east-1_EXAMPLE) from the corpus.
    let create: [UInt8]
    /// Her access token's claims, as the JWT authorizer passes them.
    let claims: [String: String]
    /// Her live access token, which the API proves with (the tests') Cognito.
    let token: String

    init() throws {
        let configuration = try TriggerConfiguration(environment: [
            "CHALLENGE_FLOW": "passkey", "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "OUTBOX_PATH": "/dev/null",
            "STATE_STORE": "memory", "PASSKEY_RP_ID": "localhost", "PASSKEY_RP_NAME": "Example",
            "PASSKEY_ALLOWED_ORIGINS": Self.origin,
        ])
        handler = try CognitoTriggerHandler(
            configuration: configuration, delivery: RecordingDelivery(), stateStore: store, clock: { CorpusEvent.now })
        let tokens = IssuedAccessTokens()
        api = PasskeyRegistrationAPI(
            settings: configuration.passkeys, store: store, recordKey: configuration.recordKey, tokens: tokens,
            clock: { CorpusEvent.now })
        create = Array(try Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-code/02-create-code.json")))
        let sub = try #require(try JSONValue(parsing: create).objectValue?["request"]?.objectValue?["userAttributes"]?
            .objectValue?["sub"]?.stringValue)
        claims = [
            "sub": sub, "username": "jane", "token_use": "access",
            "iss": "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE", "auth_time": String(CorpusEvent.now - 5),
        ]
        token = tokens.issue(claims)
    }

    func call(_ method: String, _ path: String, body: String = "") -> HTTPAPIResponse {
        api.handle(HTTPAPIEvent(
            routeKey: "\(method) \(path)", method: method, rawPath: path, headers: ["authorization": "Bearer \(token)"],
            body: Array(body.utf8), requestID: "r", claims: claims))
            .response
    }

    /// Create's request options, and Verify's verdict on the authenticator's answer to them.
    func signIn(with authenticator: inout SoftwareAuthenticator) throws -> (options: JSONObject, correct: Bool?) {
        guard case .create(let created) = try handler.handle(create).event else { throw CorpusError(message: "not a Create") }
        let options = try #require(created.response.publicChallengeParameters?["options"])
        let answer = try authenticator.authenticate(optionsJSON: options, origin: Self.origin)
        guard case .verify(let verified) = try handler.handle(try verifyEvent(after: created, answer: answer)).event else {
            throw CorpusError(message: "not a Verify")
        }
        return (try #require(try JSONValue(parsing: options).objectValue), verified.response.answerCorrect)
    }

    @Test func aRegisteredPasskeySignsInAndItsUseShowsInTheList() throws {
        var authenticator = try SoftwareAuthenticator()
        let options = call("POST", "/passkeys/registration/options", body: "{}")
        try #require(options.statusCode == 200)
        let registered = call(
            "POST", "/passkeys/registration", body: try authenticator.register(optionsJSON: try #require(options.body).text(), origin: Self.origin))
        try #require(registered.statusCode == 201, "\(registered.body?.text() ?? "")")
        let id = try #require(registered.body?.objectValue?["id"]?.stringValue)

        let (requestOptions, correct) = try signIn(with: &authenticator)
        #expect(requestOptions["allowCredentials"] == [], "the options name no credential; the authenticator finds its own")
        #expect(correct == true)
        let listed = call("GET", "/passkeys").body?.objectValue?["passkeys"]?.arrayValue?.first?.objectValue
        #expect(listed?["lastUsedAt"] == .number(JSONNumber(Int(CorpusEvent.now))))

        // Renamed, the passkey still signs in; deleted, Create no longer offers it.
        #expect(call("PATCH", "/passkeys/\(id)", body: #"{"name": "Laptop"}"#).statusCode == 200)
        #expect(try signIn(with: &authenticator).correct == true)
        #expect(call("DELETE", "/passkeys/\(id)").statusCode == 204)
        let afterDeletion = try handler.handle(create)
        guard case .create(let created) = afterDeletion.event else { throw CorpusError(message: "not a Create") }
        let decoyOptions = try JSONValue(parsing: try #require(created.response.publicChallengeParameters?["options"])).objectValue
        #expect(decoyOptions?["allowCredentials"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue }.contains(id) == false)
    }
}
