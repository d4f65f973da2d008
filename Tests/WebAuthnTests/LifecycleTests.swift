import ChallengeCrypto
@testable import ChallengeFlows
import CognitoChallengeTesting
import LosslessJSON
import Platform
import Testing
@testable import WebAuthnCeremonies

/// A passkey's life against SoftwareAuthenticator, through the options JSON a relying party sends: registration under
/// each attestation policy, sign-ins that store the counter back, replays, and attestation certificates breaking
/// §8.2.1 one requirement at a time.
@Suite struct LifecycleTests {
    static let relyingParty = RelyingParty(id: "localhost", name: "Example", allowedOrigins: ["http://localhost:5173"])
    static let origin = "http://localhost:5173"
    static let userHandle: [UInt8] = Array(repeating: 0x3c, count: 32)

    static func challenge() throws -> [UInt8] { try SystemRandom().bytes(count: 32) }

    static func creationOptions(_ challenge: [UInt8], attestation: String, algorithm: COSEAlgorithm) -> String {
        JSONValue.object(JSONObject([
            ("challenge", .string(Base64URL.encode(challenge))),
            ("rp", ["id": "localhost", "name": "Example"]),
            ("user", ["id": .string(Base64URL.encode(userHandle)), "name": "ada@example.com", "displayName": "Ada"]),
            ("pubKeyCredParams", [["type": "public-key", "alg": .number(JSONNumber(algorithm.rawValue))]]),
            ("attestation", .string(attestation)),
        ])).text()
    }

    static func requestOptions(_ challenge: [UInt8]) -> String {
        JSONValue.object(JSONObject([
            ("challenge", .string(Base64URL.encode(challenge))), ("rpId", "localhost"), ("userVerification", "required"),
        ])).text()
    }

    /// Registers a new credential of `algorithm` and returns what the relying party stores.
    static func register(
        _ authenticator: inout SoftwareAuthenticator, _ algorithm: COSEAlgorithm, attestation: String = "none",
        choices: SoftwareAuthenticator.RegistrationChoices = .init(), policy: AttestationPolicy = AttestationPolicy()
    ) throws -> VerifiedRegistration {
        let challenge = try challenge()
        let response = try authenticator.register(
            optionsJSON: creationOptions(challenge, attestation: attestation, algorithm: algorithm), origin: origin,
            choices: choices)
        return try WebAuthn.verifyRegistration(
            response, expecting: RegistrationExpectation(challenge: challenge, relyingParty: relyingParty, attestation: policy))
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func directAttestationThenSignInsThatStoreTheCounter(algorithm: COSEAlgorithm) throws {
        var authenticator = try SoftwareAuthenticator()
        let policy = AttestationPolicy(
            conveyance: .direct, allowedAAGUIDs: [SoftwareAuthenticator.defaultAAGUID],
            trustedRoots: [authenticator.attestationRootCertificate])
        let registration = try Self.register(&authenticator, algorithm, attestation: "direct", policy: policy)
        #expect(registration.attestedByCertificate)
        #expect(registration.algorithm == algorithm.rawValue)
        #expect(registration.credential.aaguid == SoftwareAuthenticator.defaultAAGUID)
        #expect(registration.credential.transports == ["internal", "hybrid"])
        var stored = registration.credential

        var firstResponse: (json: String, challenge: [UInt8])?
        for expected in UInt32(1)...3 {
            let challenge = try Self.challenge()
            let json = try authenticator.authenticate(optionsJSON: Self.requestOptions(challenge), origin: Self.origin)
            let expectation = AssertionExpectation(
                challenge: challenge, relyingParty: Self.relyingParty, userHandle: Self.userHandle,
                requireUserVerification: true)
            let verified = try WebAuthn.verifyAssertion(json, expecting: expectation, credentials: [stored])
            #expect(verified.signCount == expected)
            stored.signCount = verified.signCount
            if firstResponse == nil { firstResponse = (json, challenge) }
        }
        // A replayed response: its challenge is spent, and even under it the counter has moved on.
        let replay = try #require(firstResponse)
        let expectation = AssertionExpectation(
            challenge: replay.challenge, relyingParty: Self.relyingParty, userHandle: Self.userHandle,
            requireUserVerification: true)
        #expect(throws: WebAuthnError.counterRegression(stored: 3, received: 1)) {
            try WebAuthn.verifyAssertion(replay.json, expecting: expectation, credentials: [stored])
        }
        var fresh = expectation
        fresh.challenge = try Self.challenge()
        #expect(throws: WebAuthnError.challengeMismatch) {
            try WebAuthn.verifyAssertion(replay.json, expecting: fresh, credentials: [stored])
        }
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func syncedPasskeyWithoutCounterAndWithBackupFlags(algorithm: COSEAlgorithm) throws {
        var authenticator = try SoftwareAuthenticator(counterPolicy: .alwaysZero)
        let registration = try Self.register(
            &authenticator, algorithm, choices: .init(attestation: .packedSelf, backupEligible: true, backedUp: true))
        #expect(registration.attestationFormat == "packed" && !registration.attestedByCertificate)
        #expect(registration.credential.backupEligible && registration.credential.backedUp)
        for _ in 0..<2 {
            let challenge = try Self.challenge()
            let json = try authenticator.authenticate(optionsJSON: Self.requestOptions(challenge), origin: Self.origin)
            let expectation = AssertionExpectation(
                challenge: challenge, relyingParty: Self.relyingParty, userHandle: Self.userHandle,
                requireUserVerification: true)
            let verified = try WebAuthn.verifyAssertion(json, expecting: expectation, credentials: [registration.credential])
            #expect(verified == VerifiedAssertion(
                credentialID: registration.credential.id, signCount: 0, backedUp: true, userVerified: true))
            // BE never changes: a credential stored as not backup eligible cannot turn up eligible.
            var notEligible = registration.credential
            notEligible.backupEligible = false
            #expect(throws: WebAuthnError.backupFlagsInvalid) {
                try WebAuthn.verifyAssertion(json, expecting: expectation, credentials: [notEligible])
            }
        }
    }

    @Test func theSameCredentialCannotRegisterTwice() throws {
        var authenticator = try SoftwareAuthenticator()
        let challenge = try Self.challenge()
        let response = try authenticator.register(
            optionsJSON: Self.creationOptions(challenge, attestation: "none", algorithm: .es256), origin: Self.origin)
        var expectation = RegistrationExpectation(challenge: challenge, relyingParty: Self.relyingParty)
        let first = try WebAuthn.verifyRegistration(response, expecting: expectation)
        expectation.registeredCredentialIDs = [first.credential.id]
        #expect(throws: WebAuthnError.credentialAlreadyRegistered) {
            try WebAuthn.verifyRegistration(response, expecting: expectation)
        }
    }

    static let flawMessages: [(AttestationCertificateFlaw, String)] = [
        (.wrongOrganizationalUnit, "the attestation certificate's subject OU is not \"Authenticator Attestation\""),
        (.certificateAuthority, "the attestation certificate is a CA certificate"),
        (.wrongAAGUID, "the attestation certificate's AAGUID is not the authenticator data's"),
        (.criticalAAGUIDExtension, "the attestation certificate's AAGUID extension is critical"),
    ]

    @Test func everyFlawHasAnExpectedRefusal() {
        #expect(Set(Self.flawMessages.map { "\($0.0)" }) == Set(AttestationCertificateFlaw.allCases.map { "\($0)" }))
    }

    @Test(arguments: 0..<flawMessages.count)
    func refusesAFlawedAttestationCertificate(index: Int) throws {
        let (flaw, message) = Self.flawMessages[index]
        var authenticator = try SoftwareAuthenticator()
        for policy in [AttestationPolicy(), AttestationPolicy(conveyance: .direct)] {
            #expect(throws: WebAuthnError.attestation(message), "\(flaw)") {
                try Self.register(
                    &authenticator, .es256, choices: .init(attestation: .packedCertificate(flaw: flaw)), policy: policy)
            }
        }
    }

    @Test func allowedAAGUIDsRefuseAnotherModel() throws {
        var authenticator = try SoftwareAuthenticator(aaguid: Array(repeating: 0x77, count: 16))
        let policy = AttestationPolicy(
            conveyance: .direct, allowedAAGUIDs: [SoftwareAuthenticator.defaultAAGUID],
            trustedRoots: [authenticator.attestationRootCertificate])
        #expect(throws: WebAuthnError.attestation("the authenticator's AAGUID is not one of the allowed")) {
            try Self.register(&authenticator, .edDSA, attestation: "direct", policy: policy)
        }
    }
}
