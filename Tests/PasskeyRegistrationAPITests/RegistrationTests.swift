import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import LosslessJSON
import Platform
import ServiceClients
import Testing
import WebAuthnCeremonies

/// Registrations made by a software authenticator and checked by the real verifier, then listed, renamed and
/// removed; and every way a registration is refused.
@Suite struct RegistrationTests {
    static let origin = "http://localhost:5173"

    /// The options the API answers for `claims`, as JSON text for the authenticator.
    static func options(_ harness: APIHarness, claims: [String: String]? = nil) throws -> String {
        let response = harness.call("POST", "/passkeys/registration/options", body: "{}", claims: claims)
        try #require(response.statusCode == 200, "\(response.message ?? "")")
        return try #require(response.body).text()
    }

    /// Options, a credential made for them on a new device (an authenticator refuses the options' excluded
    /// credentials), and its registration; the registration's response.
    static func register(_ harness: APIHarness, claims: [String: String]? = nil) throws -> HTTPAPIResponse {
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try options(harness, claims: claims), origin: origin)
        return harness.call("POST", "/passkeys/registration", body: response, claims: claims)
    }

    /// The account the store holds for `sub`.
    static func account(_ harness: APIHarness, sub: String = "sub-jane") throws -> PasskeyAccount? {
        try harness.record(kind: "PASSKEY", sub: sub).map { record in
            try PasskeyAccount(fields: record.fields.compactMapValues { if case .string(let text) = $0 { text } else { nil } })
        }
    }

    @Test func theOptionsAreCreationOptionsForTheCallerWithAHandleKeptAcrossRequests() throws {
        let harness = APIHarness()
        let first = try JSONValue(parsing: try Self.options(harness)).objectValue
        let challenge = try #require(first?["challenge"]?.stringValue.flatMap(Base64URL.decode))
        #expect(challenge.count == 32)
        #expect(first?["rp"] == ["id": "localhost", "name": "Example"])
        let user = try #require(first?["user"]?.objectValue)
        #expect(user["name"] == "jane" && user["displayName"] == "jane")
        let handle = try #require(user["id"]?.stringValue.flatMap(Base64URL.decode))
        #expect(handle.count == 32)
        #expect(first?["pubKeyCredParams"]?.arrayValue?.compactMap { $0.objectValue?["alg"] } == [-8, -7, -257])
        // A discoverable credential: sign-in options name no credential (the same for every user name).
        #expect(first?["authenticatorSelection"]?.objectValue?["residentKey"] == "required")
        #expect(first?["authenticatorSelection"]?.objectValue?["requireResidentKey"] == true)
        #expect(first?["authenticatorSelection"]?.objectValue?["userVerification"] == "required")
        #expect(first?["attestation"] == "none")
        #expect(first?["timeout"] == 120000)
        #expect(first?["excludeCredentials"] == [])

        // The challenge is kept for the ceremony's timeout; the handle is the account's and stays.
        let pending = try #require(try harness.record(kind: "PASSKEY_REGISTRATION"))
        #expect(pending.fields["challenge"] == .string(Base64URL.encode(challenge)))
        #expect(pending.expiresAt == Fixture.now + 120)
        #expect(try Self.account(harness)?.handle == handle)
        let second = try JSONValue(parsing: try Self.options(harness)).objectValue
        #expect(second?["user"]?.objectValue?["id"] == user["id"])
        #expect(second?["challenge"] != first?["challenge"])
        // Another user gets another handle.
        let john = try JSONValue(parsing: try Self.options(harness, claims: Fixture.claims(sub: "sub-john", username: "john"))).objectValue
        #expect(john?["user"]?.objectValue?["id"] != user["id"])
    }

    @Test func directAttestationIsAskedForWhenConfigured() throws {
        var settings = Fixture.settings
        settings.attestation = AttestationPolicy(conveyance: .direct)
        let options = try JSONValue(parsing: try Self.options(APIHarness(settings: settings))).objectValue
        #expect(options?["attestation"] == "direct")
    }

    @Test func aRegistrationIsStoredListedAndExcludedFromLaterOptions() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let optionsJSON = try Self.options(harness)
        let handle = try JSONValue(parsing: optionsJSON).objectValue?["user"]?.objectValue?["id"]
        let registered = harness.call(
            "POST", "/passkeys/registration", body: try authenticator.register(optionsJSON: optionsJSON, origin: Self.origin))
        #expect(registered.statusCode == 201, "\(registered.message ?? "")")
        let held = try #require(authenticator.credentials.first)
        let id = Base64URL.encode(held.id)
        #expect(registered.body == .object(JSONObject([
            ("id", .string(id)), ("name", "Passkey 1"), ("transports", ["internal", "hybrid"]),
            ("createdAt", .number(JSONNumber(Int(Fixture.now)))), ("lastUsedAt", .null), ("backupEligible", false),
            ("backedUp", false), ("aaguid", "5a0f7e43-912c-4b8d-a61e-3c57d2906bf4"),
        ])))

        let listed = harness.call("GET", "/passkeys")
        #expect(listed.statusCode == 200)
        #expect(listed["passkeys"] == [try #require(registered.body)])

        // What the sign-in step will verify against: the key the authenticator holds, under the handle it was given.
        let account = try #require(try Self.account(harness))
        #expect(handle == .string(Base64URL.encode(account.handle)))
        #expect(account.credentials.map(\.id) == [held.id])
        #expect(account.credentials.first?.publicKey == (try held.cosePublicKey()))
        #expect(account.credentials.first?.aaguid == SoftwareAuthenticator.defaultAAGUID)

        let again = try JSONValue(parsing: try Self.options(harness)).objectValue
        #expect(again?["excludeCredentials"] == [["type": "public-key", "id": .string(id), "transports": ["internal", "hybrid"]]])
        #expect(throws: SoftwareAuthenticatorError.self) {
            _ = try authenticator.register(optionsJSON: JSONValue.object(try #require(again)).text(), origin: Self.origin)
        }
    }

    @Test func aNameSentWithTheResponseNamesThePasskey() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        var response = try #require(try JSONValue(parsing: try authenticator.register(
            optionsJSON: try Self.options(harness), origin: Self.origin)).objectValue)
        response["name"] = "  Work laptop  "
        let registered = harness.call("POST", "/passkeys/registration", body: JSONValue.object(response).text())
        #expect(registered.statusCode == 201, "\(registered.message ?? "")")
        #expect(registered["name"] == "Work laptop")
        // Later ones without a name count on.
        #expect(try Self.register(harness)["name"] == "Passkey 2")
    }

    @Test func theChallengeIsUsedOnce() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        #expect(harness.call("POST", "/passkeys/registration", body: response).statusCode == 201)
        let replayed = harness.call("POST", "/passkeys/registration", body: response)
        #expect(replayed.statusCode == 400)
        #expect(replayed.message?.hasPrefix("No registration is in progress") == true, "\(replayed.message ?? "")")
        #expect(harness.call("GET", "/passkeys")["passkeys"]?.arrayValue?.count == 1)
    }

    @Test func aRefusedResponseSpendsTheChallengeToo() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let options = try Self.options(harness)
        let foreign = harness.call(
            "POST", "/passkeys/registration", body: try authenticator.register(optionsJSON: options, origin: "https://evil.example"))
        #expect(foreign.statusCode == 400)
        #expect(foreign.message?.contains("origin \"https://evil.example\" is not allowed") == true, "\(foreign.message ?? "")")
        let retried = harness.call(
            "POST", "/passkeys/registration", body: try authenticator.register(optionsJSON: options, origin: Self.origin))
        #expect(retried.statusCode == 400)
        #expect(retried.message?.hasPrefix("No registration is in progress") == true)
    }

    @Test func userVerificationIsRequired() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(
            optionsJSON: try Self.options(harness), origin: Self.origin,
            choices: SoftwareAuthenticator.RegistrationChoices(userVerified: false))
        let refused = harness.call("POST", "/passkeys/registration", body: response)
        #expect(refused.statusCode == 400)
        #expect(refused.message?.contains("user-verified") == true, "\(refused.message ?? "")")
        #expect(try Self.account(harness)?.credentials == [])
    }

    @Test func anExpiredChallengeIsRefused() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        harness.clock.advance(120)
        let late = harness.call("POST", "/passkeys/registration", body: response)
        #expect(late.statusCode == 400)
        #expect(late.message?.contains("expired (after 120 s)") == true)
    }

    @Test func newOptionsReplaceTheChallengeOfEarlierOnes() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let earlier = try Self.options(harness)
        _ = try Self.options(harness)
        let refused = harness.call(
            "POST", "/passkeys/registration", body: try authenticator.register(optionsJSON: earlier, origin: Self.origin))
        #expect(refused.statusCode == 400)
        #expect(refused.message?.contains("the challenge is not the one issued") == true, "\(refused.message ?? "")")
    }

    @Test func theCapIsEnforcedAtOptionsAndAtRegistration() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        for _ in 0..<2 { #expect(try Self.register(harness).statusCode == 201) }
        // A third is on its way when another device registers one first (written here straight into the store).
        let third = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        let record = try #require(try harness.record(kind: "PASSKEY"))
        var account = try #require(try Self.account(harness))
        var other = try #require(account.credentials.first)
        other.id = [9, 9, 9]
        account.credentials.append(other)
        let key = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        #expect(try harness.store.write(key, StateRecord(fields: account.fields.mapValues(StateValue.string), expiresAt: .max),
            expectedVersion: record.version, now: Fixture.now).succeeded)

        let refused = harness.call("POST", "/passkeys/registration", body: third)
        #expect(refused.statusCode == 409)
        #expect(refused.message?.hasPrefix("You have 3 passkeys, the most allowed is 3") == true, "\(refused.message ?? "")")
        let options = harness.call("POST", "/passkeys/registration/options", body: "{}")
        #expect(options.statusCode == 409)
        #expect(try Self.account(harness)?.credentials.count == 3)
    }

    @Test func aCredentialIDAnotherAccountHoldsIsRefused() throws {
        let harness = APIHarness()
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        let id = try #require(authenticator.credentials.last?.id)
        // John's account claimed the same credential id first.
        let claim = StateKey.userRecord(
            secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY_CREDENTIAL", sub: Base64URL.encode(id))
        let johns = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-john")
        _ = try harness.store.write(claim, StateRecord(fields: ["owner": .string(johns)], expiresAt: .max), expectedVersion: nil, now: Fixture.now)

        let refused = harness.call("POST", "/passkeys/registration", body: response)
        #expect(refused.statusCode == 409)
        #expect(refused.message?.hasPrefix("This passkey is registered already") == true, "\(refused.message ?? "")")
        #expect(try Self.account(harness)?.credentials == [])
        #expect(try harness.store.read(claim, now: Fixture.now)?.fields["owner"] == .string(johns))
    }

    @Test func aRegistrationClaimsItsCredentialIDUntilDeleted() throws {
        let harness = APIHarness()
        let registered = try Self.register(harness)
        let id = try #require(registered["id"]?.stringValue)
        let claim = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY_CREDENTIAL", sub: id)
        let mine = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        #expect(try harness.store.read(claim, now: Fixture.now)?.fields["owner"] == .string(mine))
        #expect(harness.call("DELETE", "/passkeys/\(id)").statusCode == 204)
        #expect(try harness.store.read(claim, now: Fixture.now) == nil)
    }

    @Test func anotherUsersPasskeyIsNotFound() throws {
        let harness = APIHarness()
        let id = try #require(try Self.register(harness)["id"]?.stringValue)
        let john = Fixture.claims(sub: "sub-john", username: "john")
        #expect(harness.call("GET", "/passkeys", claims: john)["passkeys"] == [])
        let rename = harness.call("PATCH", "/passkeys/\(id)", body: #"{"name": "Mine now"}"#, claims: john)
        #expect(rename.statusCode == 404)
        #expect(rename.message == "You have no passkey with id \(id); GET /passkeys lists yours.")
        #expect(harness.call("DELETE", "/passkeys/\(id)", claims: john).statusCode == 404)
        #expect(harness.call("GET", "/passkeys")["passkeys"]?.arrayValue?.first?.objectValue?["name"] == "Passkey 1")
    }

    @Test func renameThenDelete() throws {
        let harness = APIHarness()
        let first = try #require(try Self.register(harness)["id"]?.stringValue)
        let second = try #require(try Self.register(harness)["id"]?.stringValue)
        let renamed = harness.call("PATCH", "/passkeys/\(first)", body: #"{"name": "Phone 📱"}"#)
        #expect(renamed.statusCode == 200)
        #expect(renamed["name"] == "Phone 📱" && renamed["id"] == .string(first))
        #expect(harness.call("DELETE", "/passkeys/\(first)").statusCode == 204)
        let listed = harness.call("GET", "/passkeys")["passkeys"]?.arrayValue ?? []
        #expect(listed.compactMap { $0.objectValue?["id"]?.stringValue } == [second])
        #expect(harness.call("DELETE", "/passkeys/\(first)").statusCode == 404)
        let options = try JSONValue(parsing: try Self.options(harness)).objectValue
        #expect(options?["excludeCredentials"]?.arrayValue?.count == 1)
    }

    @Test func fieldsTheSignInStepKeepsSurviveEveryChange() throws {
        let harness = APIHarness()
        let id = try #require(try Self.register(harness)["id"]?.stringValue)
        let key = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        var record = try #require(try harness.store.read(key, now: Fixture.now))
        #expect(record.expiresAt == Fixture.now + 10 * 365 * 86_400)
        record.fields["usedChallenges"] = .string("the step's own")
        #expect(try harness.store.write(key, record, expectedVersion: record.version, now: Fixture.now).succeeded)
        #expect(harness.call("PATCH", "/passkeys/\(id)", body: #"{"name": "Laptop"}"#).statusCode == 200)
        #expect(try Self.register(harness).statusCode == 201)
        #expect(harness.call("DELETE", "/passkeys/\(id)").statusCode == 204)
        let kept = try #require(try harness.store.read(key, now: Fixture.now))
        #expect(kept.fields["usedChallenges"] == .string("the step's own"))
        #expect(kept.expiresAt == record.expiresAt)
        #expect(try Self.account(harness)?.credentials.count == 1)
    }

    @Test func aChangeThatLosesARaceIsDecidedAgainFromWhatWon() throws {
        // Another request renames the passkey between this one's read and write; this rename still lands, on top.
        let store = RacingStore { live in
            var record = live ?? StateRecord(fields: [:], expiresAt: .max)
            record.fields["marker"] = .string("the other writer was here")
            return record
        }
        let harness = APIHarness(store: store)
        let id = try #require(try Self.register(harness)["id"]?.stringValue)
        let key = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        let before = try #require(store.read(key, now: Fixture.now)?.version)
        store.loseNext(1, writesTo: key)
        #expect(harness.call("PATCH", "/passkeys/\(id)", body: #"{"name": "Laptop"}"#).statusCode == 200)
        let after = try #require(store.read(key, now: Fixture.now))
        #expect(after.version == before + 2)
        #expect(after.fields["marker"] == .string("the other writer was here"), "the decision was made again from the winner's record")
        #expect(harness.call("GET", "/passkeys")["passkeys"]?.arrayValue?.first?.objectValue?["name"] == "Laptop")

        // A writer that wins every time: the API gives up with a 503, not a function error.
        store.loseNext(100, writesTo: key)
        let busy = harness.call("PATCH", "/passkeys/\(id)", body: #"{"name": "Desk"}"#)
        #expect(busy.statusCode == 503)
        #expect(busy.message?.contains("try again") == true)
    }

    @Test func aRegistrationRacingItsOwnRetryKeepsTheClaimOfTheStoredCredential() throws {
        // An earlier attempt of this registration claimed the id and stored the credential just before this one writes.
        let racing = PosixLockedCredential()
        let store = RacingStore { live in
            var record = live ?? StateRecord(fields: [:], expiresAt: .max)
            let strings = record.fields.compactMapValues { if case .string(let text) = $0 { text } else { nil } }
            if var account = try? PasskeyAccount(fields: strings), let credential = racing.value {
                account.credentials.append(credential)
                for (name, value) in account.fields { record.fields[name] = .string(value) }
            }
            return record
        }
        let harness = APIHarness(store: store)
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        let held = try #require(authenticator.credentials.last)
        racing.value = StoredCredential(
            id: held.id, publicKey: try held.cosePublicKey(), signCount: 0, transports: [], aaguid: SoftwareAuthenticator.defaultAAGUID,
            backupEligible: false, backedUp: false, name: "Passkey 1", createdAt: Fixture.now)
        let mine = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        let claim = StateKey.userRecord(
            secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY_CREDENTIAL", sub: Base64URL.encode(held.id))
        #expect(store.write(claim, StateRecord(fields: ["owner": .string(mine)], expiresAt: .max), expectedVersion: nil, now: Fixture.now).succeeded)
        store.loseNext(1, writesTo: mine)

        let refused = harness.call("POST", "/passkeys/registration", body: response)
        #expect(refused.statusCode == 409)
        #expect(try Self.account(harness)?.credentials.map(\.id) == [held.id])
        #expect(store.read(claim, now: Fixture.now)?.fields["owner"] == .string(mine), "the stored credential keeps its claim")
    }

    @Test func aClaimMadeForARegistrationThatLosesIsGivenUp() throws {
        // Another registration fills the account to the cap between this one's claim and its write.
        let harness = APIHarness(store: RacingStore { live in
            var record = live ?? StateRecord(fields: [:], expiresAt: .max)
            let strings = record.fields.compactMapValues { if case .string(let text) = $0 { text } else { nil } }
            if var account = try? PasskeyAccount(fields: strings), let first = account.credentials.first {
                while account.credentials.count < Fixture.settings.maxCredentialsPerUser {
                    var other = first
                    other.id = [UInt8(account.credentials.count)]
                    account.credentials.append(other)
                }
                for (name, value) in account.fields { record.fields[name] = .string(value) }
            }
            return record
        })
        let store = try #require(harness.store as? RacingStore)
        #expect(try Self.register(harness).statusCode == 201)
        var authenticator = try SoftwareAuthenticator()
        let response = try authenticator.register(optionsJSON: try Self.options(harness), origin: Self.origin)
        let id = try #require(authenticator.credentials.last?.id)
        let mine = StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane")
        store.loseNext(1, writesTo: mine)
        let refused = harness.call("POST", "/passkeys/registration", body: response)
        #expect(refused.statusCode == 409)
        #expect(refused.message?.hasPrefix("You have 3 passkeys") == true, "\(refused.message ?? "")")
        let claim = StateKey.userRecord(
            secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY_CREDENTIAL", sub: Base64URL.encode(id))
        #expect(store.read(claim, now: Fixture.now) == nil)
    }

    @Test func aDeletionThatLosesToAnotherDeletionIsA404() throws {
        // The other writer removes every passkey first: deciding again from its record finds none to delete.
        let store = RacingStore { live in
            var record = live ?? StateRecord(fields: [:], expiresAt: .max)
            record.fields["credentials"] = .string(StoredCredential.encodeList([]))
            return record
        }
        let harness = APIHarness(store: store)
        let id = try #require(try Self.register(harness)["id"]?.stringValue)
        store.loseNext(1, writesTo: StateKey.userRecord(secret: Fixture.recordKey, userPoolId: Fixture.poolID, kind: "PASSKEY", sub: "sub-jane"))
        #expect(harness.call("DELETE", "/passkeys/\(id)").statusCode == 404)
    }
}

/// A credential a racing writer adds, set once the test knows it.
final class PosixLockedCredential: Sendable {
    private let stored = PosixLock<StoredCredential?>(nil)

    var value: StoredCredential? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
