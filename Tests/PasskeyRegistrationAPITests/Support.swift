import ChallengeCrypto
import ChallengeFlows
import CognitoTriggers
import LosslessJSON
import Platform
import ServiceClients
import TestSupport
import WebAuthnCeremonies

/// The values the API tests share.
enum Fixture {
    static let poolID = "us-east-1_EXAMPLE"
    static let issuer = "https://cognito-idp.us-east-1.amazonaws.com/\(poolID)"
    static let now: Int64 = 1_763_800_000
    static let recordKey = Array("a record key for the passkey API tests, 32+ bytes".utf8)
    static let settings = PasskeySettings(
        relyingParty: RelyingParty(id: "localhost", name: "Example", allowedOrigins: ["http://localhost:5173"]),
        maxCredentialsPerUser: 3, timeoutMilliseconds: 120_000)

    /// The tokens the tests' Cognito takes.
    static let tokens = IssuedAccessTokens()

    /// An access token's claims, as Cognito signs them (and API Gateway's JWT authorizer passes them on): signed in
    /// ten seconds before the tests' clock by default.
    static func claims(sub: String = "sub-jane", username: String = "jane", authTime: Int64 = now - 10) -> [String: String] {
        [
            "sub": sub, "username": username, "iss": issuer, "token_use": "access", "client_id": "app-client",
            "exp": "1763803600", "auth_time": String(authTime),
        ]
    }

    /// A request with a live token of `claims` in its `authorization` header, and the claims as the authorizer passes them.
    static func event(
        _ method: String, _ path: String, body: String = "", claims: [String: String]? = nil, stage: String = "$default"
    ) -> HTTPAPIEvent {
        let claims = claims ?? Self.claims()
        return HTTPAPIEvent(
            routeKey: "\(method) \(path)", method: method, rawPath: path, stage: stage,
            headers: ["authorization": "Bearer \(tokens.issue(claims))"], body: Array(body.utf8), requestID: "request-1",
            claims: claims)
    }
}

/// A clock a test moves by hand.
final class ManualClock: Sendable {
    private let seconds = PosixLock<Int64>(Fixture.now)
    func advance(_ by: Int64) { seconds.withLock { $0 += by } }
    var read: @Sendable () -> Int64 { { self.seconds.withLock { $0 } } }
}

/// The API over a store of the test's own.
struct APIHarness {
    let store: any StateStore
    let clock = ManualClock()
    let api: PasskeyRegistrationAPI

    init(store: any StateStore = MemoryStateStore(), settings: PasskeySettings? = Fixture.settings) {
        self.store = store
        api = PasskeyRegistrationAPI(
            settings: settings, store: store, recordKey: Fixture.recordKey, tokens: Fixture.tokens, clock: clock.read)
    }

    func call(
        _ method: String, _ path: String, body: String = "", claims: [String: String]? = nil
    ) -> HTTPAPIResponse {
        api.handle(Fixture.event(method, path, body: body, claims: claims)).response
    }

    /// The record the API keeps for `sub` of `kind`.
    func record(kind: String, sub: String = "sub-jane") throws -> StateRecord? {
        try store.read(
            StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: kind, sub: sub), now: clock.read())
    }
}

/// A store that makes the next writes to one key lose a race: before each of them, another writer changes the record.
final class RacingStore: StateStore {
    let inner = MemoryStateStore()
    private let pending = PosixLock<[String: Int]>([:])
    private let interference: @Sendable (StateRecord?) -> StateRecord

    /// `interference` makes what the other writer stores from what it finds.
    init(interference: @escaping @Sendable (StateRecord?) -> StateRecord) {
        self.interference = interference
    }

    func loseNext(_ count: Int, writesTo key: String) {
        pending.withLock { $0[key] = count }
    }

    func read(_ key: String, now: Int64) -> StateRecord? {
        inner.read(key, now: now)
    }

    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) -> WriteOutcome {
        let interfere = pending.withLock { pending -> Bool in
            guard let left = pending[key], left > 0 else { return false }
            pending[key] = left - 1
            return true
        }
        if interfere {
            let live = inner.read(key, now: now)
            _ = inner.write(key, interference(live), expectedVersion: live?.version, now: now)
        }
        return inner.write(key, record, expectedVersion: expectedVersion, now: now)
    }
}

/// A store that fails every call, as DynamoDB does when it cannot be reached.
final class FailingStore: StateStore {
    func read(_ key: String, now: Int64) throws(StateStoreError) -> StateRecord? {
        throw .malformedAnswer(operation: "GetItem", table: "state", problem: "the test's store always fails")
    }

    func write(_ key: String, _ record: StateRecord, expectedVersion: Int64?, now: Int64) throws(StateStoreError) -> WriteOutcome {
        throw .malformedAnswer(operation: "PutItem", table: "state", problem: "the test's store always fails")
    }
}

extension HTTPAPIResponse {
    /// A member of the body object.
    subscript(_ key: String) -> JSONValue? {
        body?.objectValue?[key]
    }
}
