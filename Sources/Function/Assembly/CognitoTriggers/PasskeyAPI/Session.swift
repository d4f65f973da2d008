import ChallengeCrypto
import ChallengeFlows
import LosslessJSON
import ServiceClients
import WebAuthnCeremonies

/// One request's work on the caller's records.
struct Session {
    let settings: PasskeySettings
    let records: PasskeyRecords
    let caller: Caller
    let now: Int64
    let random: any RandomSource

    // MARK: Options

    /// Creates the account (with a new user handle) on first use, keeps a new challenge as the pending registration
    /// (replacing any earlier one), and answers the creation options.
    func registrationOptions() throws(APIRefusal) -> HTTPAPIResponse {
        let existing = try records.readAccount(now: now)?.account
        let account = if let existing { existing } else { try createAccount() }
        guard account.credentials.count < settings.maxCredentialsPerUser else { throw capReached(account) }
        let challenge = try randomBytes()
        let pending = StateRecord(
            fields: ["challenge": .string(Base64URL.encode(challenge))],
            expiresAt: now + Int64((settings.timeoutMilliseconds + 999) / 1000))
        var expected: Int64? = nil
        var stored = false
        for _ in 0..<PasskeyRecords.attempts where !stored {
            switch try records.write(records.registrationKey, pending, expectedVersion: expected, now: now) {
            case .written: stored = true
            case .conflict(let found): expected = found?.version
            }
        }
        guard stored else { throw .busy }
        return HTTPAPIResponse(statusCode: 200, body: creationOptions(challenge: challenge, account: account))
    }

    /// A new account with a random handle, stored only if there is none; a concurrent first request's account wins.
    private func createAccount() throws(APIRefusal) -> PasskeyAccount {
        let created = PasskeyAccount(handle: try randomBytes())
        let record = PasskeyRecords.record(of: created, over: nil, now: now)
        switch try records.write(records.accountKey, record, expectedVersion: nil, now: now) {
        case .written: return created
        case .conflict(let found):
            guard let existing = try records.account(from: found) else { throw .busy }
            return existing.account
        }
    }

    /// `PublicKeyCredentialCreationOptionsJSON` (WebAuthn L3 §5.4), every binary member base64url.
    private func creationOptions(challenge: [UInt8], account: PasskeyAccount) -> JSONValue {
        let excluded = account.credentials.map { credential in
            var descriptor = JSONObject([("type", "public-key"), ("id", .string(Base64URL.encode(credential.id)))])
            if !credential.transports.isEmpty { descriptor["transports"] = .array(credential.transports.map(JSONValue.string)) }
            return JSONValue.object(descriptor)
        }
        let relyingParty = settings.relyingParty
        return .object(JSONObject([
            ("challenge", .string(Base64URL.encode(challenge))),
            ("rp", ["id": .string(relyingParty.id), "name": .string(relyingParty.name)]),
            ("user", .object(JSONObject([
                ("id", .string(Base64URL.encode(account.handle))), ("name", .string(caller.username)),
                ("displayName", .string(caller.username)),
            ]))),
            ("pubKeyCredParams", .array(WebAuthn.supportedAlgorithms.map { (algorithm) -> JSONValue in ["type": "public-key", "alg": .number(JSONNumber(algorithm))] })),
            ("timeout", .number(JSONNumber(settings.timeoutMilliseconds))),
            ("excludeCredentials", .array(excluded)),
            ("authenticatorSelection", .object(JSONObject([
                ("residentKey", "required"), ("requireResidentKey", true), ("userVerification", "required"),
            ]))),
            ("attestation", .string(settings.attestation.conveyance.rawValue)),
        ]))
    }

    // MARK: Registration

    /// Consumes the pending challenge, verifies the response against it, claims the credential id, and adds the
    /// credential to the account.
    func register(_ body: JSONObject) throws(APIRefusal) -> HTTPAPIResponse {
        var response = body
        let requestedName = try response["name"].map { value throws(APIRefusal) in try PasskeyRegistrationAPI.validName(value) }
        response["name"] = nil
        guard response["id"]?.stringValue != nil, response["response"]?.objectValue != nil else {
            throw .badRequest(
                "The body is not a RegistrationResponseJSON (it needs \"id\" and \"response\"): send JSON.stringify(credential) of the credential navigator.credentials.create gave, optionally with a \"name\".")
        }
        let accountRecord = try records.read(records.accountKey, now: now)
        guard let account = try records.account(from: accountRecord)?.account else { throw noPendingRegistration }
        guard account.credentials.count < settings.maxCredentialsPerUser else { throw capReached(account) }
        let challenge = try consumeChallenge()

        let verified: VerifiedRegistration
        do throws(WebAuthnError) {
            verified = try WebAuthn.verifyRegistration(
                JSONValue.object(response).text(),
                expecting: RegistrationExpectation(
                    challenge: challenge, relyingParty: settings.relyingParty, requireUserVerification: true,
                    attestation: settings.attestation, registeredCredentialIDs: account.credentials.map(\.id)))
        } catch .credentialAlreadyRegistered {
            throw alreadyRegistered
        } catch {
            throw .badRequest("The passkey was not registered: \(error). Ask for new options and try again.")
        }
        var credential = verified.credential
        credential.createdAt = now
        let newlyClaimed = try claim(credential.id)
        do throws(APIRefusal) {
            let stored = try records.changeAccount(startingFrom: .some(accountRecord), now: now) {
                (current) throws(APIRefusal) -> (PasskeyAccount, StoredCredential) in
                guard var current else { throw noPendingRegistration }
                guard !current.credentials.contains(where: { $0.id == credential.id }) else { throw alreadyRegistered }
                guard current.credentials.count < settings.maxCredentialsPerUser else { throw capReached(current) }
                var named = credential
                named.name = requestedName ?? Self.defaultName(among: current.credentials)
                current.credentials.append(named)
                return (current, named)
            }
            return HTTPAPIResponse(statusCode: 201, body: Self.publicView(stored))
        } catch {
            // A claim this request made goes again; one the account held already stays with its credential.
            if newlyClaimed { try? releaseClaim(credential.id) }
            throw error
        }
    }

    /// The pending challenge, made unusable by a conditional write before anything is verified against it: a replay,
    /// or a second request racing this one, finds none.
    private func consumeChallenge() throws(APIRefusal) -> [UInt8] {
        guard let pending = try records.read(records.registrationKey, now: now) else { throw noPendingRegistration }
        guard case .string(let text)? = pending.fields["challenge"], let challenge = Base64URL.decode(text), !challenge.isEmpty else {
            throw .internalError("the pending registration record holds no challenge")
        }
        let spent = StateRecord(fields: [:], expiresAt: now)
        guard try records.write(records.registrationKey, spent, expectedVersion: pending.version, now: now).succeeded else {
            throw .conflict("This registration's challenge was used already; ask for new options (POST /passkeys/registration/options).")
        }
        return challenge
    }

    /// Claims a credential id for this account, so that no other account can register it; true when this request
    /// made the claim, false when the account held it already (a retried registration).
    private func claim(_ id: [UInt8]) throws(APIRefusal) -> Bool {
        let key = records.claimKey(credentialID: id)
        let record = StateRecord(
            fields: ["owner": .string(records.accountKey)], expiresAt: now + PasskeyRecords.newRecordLifetime)
        switch try records.write(key, record, expectedVersion: nil, now: now) {
        case .written: return true
        case .conflict(let found):
            guard case .string(records.accountKey)? = found?.fields["owner"] else { throw alreadyRegistered }
            return false
        }
    }

    /// Gives up this account's claim on a credential id.
    private func releaseClaim(_ id: [UInt8]) throws(APIRefusal) {
        let key = records.claimKey(credentialID: id)
        guard let claim = try records.read(key, now: now), case .string(records.accountKey)? = claim.fields["owner"] else { return }
        _ = try records.write(key, StateRecord(fields: [:], expiresAt: now), expectedVersion: claim.version, now: now)
    }

    // MARK: List, rename, delete

    func list() throws(APIRefusal) -> HTTPAPIResponse {
        let credentials = try records.readAccount(now: now)?.account.credentials ?? []
        return HTTPAPIResponse(statusCode: 200, body: ["passkeys": .array(credentials.map(Self.publicView))])
    }

    func rename(_ id: [UInt8], to name: String) throws(APIRefusal) -> HTTPAPIResponse {
        let renamed = try records.changeAccount(startingFrom: nil, now: now) {
            (current) throws(APIRefusal) -> (PasskeyAccount, StoredCredential) in
            guard var current, let index = current.credentials.firstIndex(where: { $0.id == id }) else { throw notYours(id) }
            current.credentials[index].name = name
            return (current, current.credentials[index])
        }
        return HTTPAPIResponse(statusCode: 200, body: Self.publicView(renamed))
    }

    func delete(_ id: [UInt8]) throws(APIRefusal) -> HTTPAPIResponse {
        try records.changeAccount(startingFrom: nil, now: now) { (current) throws(APIRefusal) -> (PasskeyAccount, Void) in
            guard var current, let index = current.credentials.firstIndex(where: { $0.id == id }) else { throw notYours(id) }
            current.credentials.remove(at: index)
            return (current, ())
        }
        // The claim goes last: while it stays (a failure here), the id is still this account's to register again.
        try releaseClaim(id)
        return HTTPAPIResponse(statusCode: 204, body: nil)
    }

    // MARK: Views and refusals

    /// A passkey as the API shows it: everything but the public key and the counter.
    static func publicView(_ credential: StoredCredential) -> JSONValue {
        .object(JSONObject([
            ("id", .string(Base64URL.encode(credential.id))),
            ("name", .string(credential.name)),
            ("transports", .array(credential.transports.map(JSONValue.string))),
            ("createdAt", .number(JSONNumber(Int(credential.createdAt)))),
            ("lastUsedAt", credential.lastUsedAt.map { .number(JSONNumber(Int($0))) } ?? .null),
            ("backupEligible", .bool(credential.backupEligible)),
            ("backedUp", .bool(credential.backedUp)),
            ("aaguid", .string(uuid(credential.aaguid))),
        ]))
    }

    /// "Passkey N" with the smallest N no passkey of the account is named.
    static func defaultName(among credentials: [StoredCredential]) -> String {
        let taken = Set(credentials.map(\.name))
        var number = credentials.count + 1
        while taken.contains("Passkey \(number)") { number += 1 }
        return "Passkey \(number)"
    }

    /// 16 bytes in the UUID form AAGUID lists use (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`); other lengths as hex.
    static func uuid(_ bytes: [UInt8]) -> String {
        let hex = Hex.encode(bytes)
        guard bytes.count == 16 else { return hex }
        var text = ""
        for (offset, character) in hex.enumerated() {
            if [8, 12, 16, 20].contains(offset) { text.append("-") }
            text.append(character)
        }
        return text
    }

    private func randomBytes() throws(APIRefusal) -> [UInt8] {
        do {
            return try random.bytes(count: PasskeyRegistrationAPI.randomByteCount)
        } catch {
            throw .internalError("no random bytes: \(error)")
        }
    }

    private var noPendingRegistration: APIRefusal {
        .badRequest(
            "No registration is in progress, or it expired (after \(settings.timeoutMilliseconds / 1000) s): ask for new options (POST /passkeys/registration/options) and create the passkey with them.")
    }

    private var alreadyRegistered: APIRefusal {
        .conflict("This passkey is registered already; create a new one (the options list the ones you have in excludeCredentials).")
    }

    private func capReached(_ account: PasskeyAccount) -> APIRefusal {
        .conflict(
            "You have \(account.credentials.count) passkeys, the most allowed is \(settings.maxCredentialsPerUser); delete one (DELETE /passkeys/{id}) before registering another.")
    }

    private func notYours(_ id: [UInt8]) -> APIRefusal {
        .notFound("You have no passkey with id \(Base64URL.encode(id)); GET /passkeys lists yours.")
    }
}
