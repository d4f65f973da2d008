import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import DevelopmentSupport
import Invoker
import LosslessJSON
import Platform
import ServiceClients
import TestSupport
import Testing
import WebAuthnCeremonies

/// A user of the pool in these tests.
struct TestUser: Sendable {
    var userName: String
    /// Nil for a user Cognito does not know.
    var sub: String?

    static let jane = TestUser(userName: "jane", sub: "5f1c7e2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b")
    static let john = TestUser(userName: "john", sub: "0b9d3c1e-7a2f-4d8e-9c6b-5a4f3e2d1c0b")
    static let unknown = TestUser(userName: "nobody", sub: nil)
}

/// The passkey flow through the real trigger handler, over a memory store that the test can also read and write.
final class PasskeyRig: Sendable {
    static let userPoolId = "us-east-1_EXAMPLE"
    static let origin = "https://example.com"
    static let relyingParty = RelyingParty(id: "example.com", name: "Example", allowedOrigins: [origin])
    static let now = CorpusEvent.now

    let store = MemoryStateStore()
    let environment: [String: String]
    private let clock = PosixLock<Int64>(PasskeyRig.now)

    init(flow: String = "passkey", extra: [String: String] = [:]) {
        environment = [
            "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "STATE_STORE": "memory",
            "CHALLENGE_FLOW": flow, "PASSKEY_RP_ID": Self.relyingParty.id, "PASSKEY_RP_NAME": Self.relyingParty.name,
            "PASSKEY_ALLOWED_ORIGINS": Self.origin,
        ].merging(extra) { $1 }
    }

    /// Codes the handlers delivered.
    let delivery = RecordingDelivery()

    /// A handler over the rig's store: several of them stand for several function instances.
    func handler() throws -> CognitoTriggerHandler {
        try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: environment), delivery: delivery, stateStore: store,
            clock: { [clock] in clock.withLock { $0 } })
    }

    func advance(_ seconds: Int64) {
        clock.withLock { $0 += seconds }
    }

    // MARK: Records

    /// Where the user's passkeys are kept.
    func recordKey(for user: TestUser) throws -> String {
        let keys = try ChallengeKeys(current: Array(CorpusEvent.secret.utf8))
        return StateKey.userRecord(
            secret: keys.recordKey, userPoolId: Self.userPoolId, kind: PasskeyStep.kind.rawValue, sub: try #require(user.sub))
    }

    func record(of user: TestUser) throws -> StateRecord? {
        store.read(try recordKey(for: user), now: Self.now)
    }

    func account(of user: TestUser) throws -> PasskeyAccount? {
        guard let record = try record(of: user) else { return nil }
        var strings: [String: String] = [:]
        for (name, value) in record.fields {
            if case .string(let text) = value { strings[name] = text }
        }
        return try PasskeyAccount(fields: strings)
    }

    /// Registers a new passkey of `authenticator` for `user` (the registration ceremony, verified for real), and
    /// writes the user's account record straight into the store, as the registration API would.
    @discardableResult
    func register(
        _ user: TestUser, on authenticator: inout SoftwareAuthenticator, transports: [String] = ["hybrid", "internal"]
    ) throws -> StoredCredential {
        let key = try recordKey(for: user)
        let existing = store.read(key, now: Self.now)
        var account = try self.account(of: user) ?? PasskeyAccount(handle: try SystemRandom().bytes(count: 32))
        let challenge = try SystemRandom().bytes(count: 32)
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rp": ["id": .string(Self.relyingParty.id), "name": .string(Self.relyingParty.name)],
            "user": [
                "id": .string(Base64URL.encode(account.handle)), "name": .string(user.userName),
                "displayName": .string(user.userName),
            ],
            "pubKeyCredParams": [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -8]],
            "authenticatorSelection": ["residentKey": "preferred", "userVerification": "required"],
            "attestation": "none",
        ]
        let response = try authenticator.register(optionsJSON: options.text(), origin: Self.origin)
        var credential = try WebAuthn.verifyRegistration(
            response, expecting: RegistrationExpectation(challenge: challenge, relyingParty: Self.relyingParty)
        ).credential
        credential.transports = transports
        credential.name = "Test passkey"
        credential.createdAt = Self.now
        account.credentials.append(credential)
        try write(account, for: user, over: existing)
        return credential
    }

    func write(_ account: PasskeyAccount, for user: TestUser, over existing: StateRecord?) throws {
        var fields = existing?.fields ?? [:]
        for (name, value) in account.fields { fields[name] = .string(value) }
        let record = StateRecord(fields: fields, expiresAt: Self.now + 365 * 86_400)
        let outcome = store.write(try recordKey(for: user), record, expectedVersion: existing?.version, now: Self.now)
        #expect(outcome.succeeded)
    }

    // MARK: Events

    /// A Create for `user` after `session` (the first of a passwordless sign-in by default), with `clientMetadata`.
    func createEvent(for user: TestUser, session: [JSONValue] = [], clientMetadata: [String: String]? = nil) -> [UInt8] {
        var attributes: [(String, JSONValue)] = []
        if let sub = user.sub {
            attributes = [
                ("sub", .string(sub)), ("email", .string("\(user.userName)@example.com")), ("email_verified", "true"),
                ("cognito:user_status", "CONFIRMED"),
            ]
        }
        let event: JSONValue = .object(JSONObject([
            ("version", "1"), ("region", "us-east-1"), ("userPoolId", .string(Self.userPoolId)),
            ("userName", .string(user.userName)),
            ("callerContext", ["awsSdkVersion": "aws-sdk-unknown-unknown", "clientId": "3example0client0id0abc123"]),
            ("triggerSource", .string(TriggerSource.createAuthChallenge.rawValue)),
            ("request", .object(JSONObject([
                ("userAttributes", .object(JSONObject(attributes))), ("challengeName", "CUSTOM_CHALLENGE"),
                ("session", .array(session)), ("userNotFound", .bool(user.sub == nil)),
            ] + (clientMetadata.map { [("clientMetadata", .stringObject($0))] } ?? [])))),
            ("response", ["publicChallengeParameters": nil, "privateChallengeParameters": nil, "challengeMetadata": nil]),
        ]))
        return event.serialized()
    }

    func create(
        for user: TestUser, session: [JSONValue] = [], clientMetadata: [String: String]? = nil,
        with handler: CognitoTriggerHandler
    ) throws -> CreateAuthChallengeEvent {
        guard case .create(let event) = try handler.handle(createEvent(for: user, session: session, clientMetadata: clientMetadata)).event else {
            throw CorpusError(message: "not a Create")
        }
        return event
    }

    /// The session entry Cognito records for `create` answered `correct`ly.
    static func entry(_ create: CreateAuthChallengeEvent, correct: Bool) -> JSONValue {
        [
            "challengeName": "CUSTOM_CHALLENGE", "challengeResult": .bool(correct),
            "challengeMetadata": create.response.challengeMetadata.map(JSONValue.string) ?? .null,
        ]
    }

    /// Whether `answer` to `create` is accepted, with the handler's summary and warning.
    func verify(
        _ create: CreateAuthChallengeEvent, answer: String, clientMetadata: [String: String]? = nil,
        with handler: CognitoTriggerHandler
    ) throws -> (correct: Bool, summary: String, warning: String?) {
        let result = try handler.handle(verifyEvent(after: create, answer: answer, clientMetadata: clientMetadata))
        guard case .verify(let verified) = result.event else { throw CorpusError(message: "not a Verify") }
        return (verified.response.answerCorrect ?? false, result.summary, result.warning)
    }
}

extension CreateAuthChallengeEvent {
    /// The public parameter `options`.
    var options: String {
        get throws { try #require(response.publicChallengeParameters?["options"]) }
    }

    /// `options` parsed.
    var optionsObject: JSONObject {
        get throws { try #require(try JSONValue(parsing: options).objectValue) }
    }

    /// The ids in `options.allowCredentials`, decoded.
    var allowedIDs: [[UInt8]] {
        get throws {
            try (try optionsObject["allowCredentials"]?.arrayValue ?? []).map { entry in
                try #require(entry.objectValue?["id"]?.stringValue.flatMap(Base64URL.decode))
            }
        }
    }
}
