import ChallengeCrypto
@testable import ChallengeFlows
@testable import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

@Suite struct RegistrationTests {
    static func verify(
        _ ceremony: RegistrationCeremony, attestation: AttestationPolicy = AttestationPolicy(),
        registered: [[UInt8]] = [], requireUserVerification: Bool = true
    ) throws -> VerifiedRegistration {
        var expectation = ceremony.expectation
        expectation.attestation = attestation
        expectation.registeredCredentialIDs = registered
        expectation.requireUserVerification = requireUserVerification
        return try WebAuthn.verifyRegistration(ceremony.json, expecting: expectation)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsNoneAttestationAndReturnsTheCredentialToStore(algorithm: COSEAlgorithm) throws {
        let ceremony = RegistrationCeremony(KeyHandle.shared[algorithm]!)
        let verified = try Self.verify(ceremony)
        #expect(verified.algorithm == algorithm.rawValue)
        #expect(verified.attestationFormat == "none")
        #expect(!verified.attestedByCertificate)
        #expect(verified.credential == StoredCredential(
            id: ceremony.credentialID, publicKey: try ceremony.key.coseBytes, signCount: 0, transports: ["internal", "hybrid"],
            aaguid: Fixture.aaguid, backupEligible: true, backedUp: true, name: "", createdAt: 0))
        // The stored key verifies the same authenticator's assertions.
        var assertion = AssertionCeremony(ceremony.key)
        assertion.credentialID = ceremony.credentialID
        assertion.flags = Flag.up | Flag.uv | Flag.be
        #expect(try WebAuthn.verifyAssertion(
            assertion.json, expecting: assertion.expectation, credentials: [verified.credential]).signCount == 7)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsPackedSelfAttestation(algorithm: COSEAlgorithm) throws {
        var ceremony = RegistrationCeremony(KeyHandle.shared[algorithm]!)
        ceremony.statement = .packedSelf(algorithm: nil)
        ceremony.flags = Flag.up | Flag.uv
        ceremony.signCount = 5
        let verified = try Self.verify(ceremony)
        #expect(verified.attestationFormat == "packed")
        #expect(!verified.attestedByCertificate)
        #expect(verified.credential.signCount == 5)
        #expect(!verified.credential.backupEligible && !verified.credential.backedUp)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func refusesEveryTamperedPart(algorithm: COSEAlgorithm) throws {
        let good = RegistrationCeremony(KeyHandle.shared[algorithm]!)
        func refused(
            _ error: WebAuthnError, registered: [[UInt8]] = [], _ change: (inout RegistrationCeremony) -> Void,
            _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            var ceremony = good
            change(&ceremony)
            #expect(throws: error, comment, sourceLocation: sourceLocation) { try Self.verify(ceremony, registered: registered) }
        }
        for (what, error, change) in good.refusedAlike(otherType: "webauthn.get") {
            refused(error, change, "\(what)")
        }
        refused(.challengeMismatch) { $0.clientData.challenge = Array(repeating: 0, count: 32) }
        refused(.rpIDMismatch) { $0.rpID = "example.org" }
        refused(.malformed("the authenticator data has no attested credential data (AT)")) { $0.includeAttestedData = false }
        refused(.malformed("the attested credential ID is not the response's rawId")) {
            $0.rawID = [1, 2]
            $0.credentialID = [1, 2, 3]
        }
        refused(.credentialAlreadyRegistered, registered: [[9], good.credentialID]) { _ in }
        refused(.malformed("the credential ID of 1024 bytes is over 1023")) {
            $0.credentialID = Array(repeating: 1, count: 1024)
        }
        let otherAlgorithmKey = try #require(try good.key.coseKey().replacing(3, with: -36)).encoded()
        refused(.unsupportedAlgorithm(-36)) { $0.coseKey = otherAlgorithmKey }
        refused(.attestation("the self attestation signature does not verify")) {
            $0.statement = .packedSelf(algorithm: nil)
            $0.signedBytes = Array("other bytes".utf8)
        }
        let goodKey = try good.key.coseBytes
        refused(.attestation("the self attestation signature does not verify")) {
            $0.statement = .packedSelf(algorithm: nil)
            $0.key = KeyHandle.others[algorithm]!
            $0.coseKey = goodKey
        }
        let otherAlgorithm = algorithm == .es256 ? -8 : -7
        refused(.attestation("self attestation alg \(otherAlgorithm) is not the credential key's \(algorithm.rawValue)")) {
            $0.statement = .packedSelf(algorithm: otherAlgorithm)
        }
        refused(.attestation("a none statement must be empty")) {
            $0.statement = .custom(format: "none", statement: .map([("sig", .bytes([1]))]))
        }
        refused(.attestation("the packed statement has no sig")) {
            $0.statement = .custom(format: "packed", statement: .map([("alg", -7)]))
        }
    }

    @Test func noneConveyanceAcceptsOtherFormatsWithoutCheckingThem() throws {
        var ceremony = RegistrationCeremony(KeyHandle.shared[.es256]!)
        ceremony.statement = .custom(format: "tpm", statement: .map([("ver", "2.0")]))
        let verified = try Self.verify(ceremony)
        #expect(verified.attestationFormat == "tpm")
        #expect(!verified.attestedByCertificate)
        #expect(throws: WebAuthnError.attestation("direct attestation needs a packed statement with a certificate chain, not tpm")) {
            try Self.verify(ceremony, attestation: AttestationPolicy(conveyance: .direct))
        }
    }

    @Test func directConveyanceRefusesNoneAndSelfAttestation() throws {
        var ceremony = RegistrationCeremony(KeyHandle.shared[.edDSA]!)
        #expect(throws: WebAuthnError.attestation("direct attestation needs a packed statement with a certificate chain, not none")) {
            try Self.verify(ceremony, attestation: AttestationPolicy(conveyance: .direct))
        }
        ceremony.statement = .packedSelf(algorithm: nil)
        #expect(throws: WebAuthnError.attestation("direct attestation needs a packed statement with a certificate chain, not packed")) {
            try Self.verify(ceremony, attestation: AttestationPolicy(conveyance: .direct))
        }
    }

    @Test func allowedAAGUIDsRefuseAnAttestationWithoutACertificateChain() throws {
        // A none statement's AAGUID is the authenticator's own word, allowed or not.
        let ceremony = RegistrationCeremony(KeyHandle.shared[.es256]!)
        #expect(throws: WebAuthnError.attestation("an AAGUID allow-list needs trusted roots to verify attestation certificate chains against")) {
            try Self.verify(ceremony, attestation: AttestationPolicy(allowedAAGUIDs: [Fixture.aaguid]))
        }
        let root = try SoftwareAuthenticator().attestationRootCertificate
        #expect(throws: WebAuthnError.attestation("an allowed AAGUID counts only with a certificate chain to a trusted root, which this none statement does not carry")) {
            try Self.verify(ceremony, attestation: AttestationPolicy(allowedAAGUIDs: [Fixture.aaguid], trustedRoots: [root]))
        }
    }

    @Test func refusesMalformedAttestationObjects() throws {
        let ceremony = RegistrationCeremony(KeyHandle.shared[.es256]!)
        func refused(_ attestationObject: [UInt8], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: WebAuthnError.malformed(message), sourceLocation: sourceLocation) {
                try WebAuthn.verifyRegistration(
                    ceremony.json.replacingAttestationObject(with: attestationObject), expecting: ceremony.expectation)
            }
        }
        refused([0xa0, 0x00], "attestationObject: bytes follow the CBOR item (byte 1)")
        refused(CBOR.map([("fmt", "none")]).encoded(), "attestationObject is not a map of fmt, attStmt and authData")
        refused(
            CBOR.map([("fmt", "none"), ("attStmt", .map([])), ("authData", .bytes([1, 2]))]).encoded(),
            "authenticator data of 2 bytes is shorter than the 37 it always has")
    }
}

extension String {
    /// The registration JSON with `response.attestationObject` replaced.
    func replacingAttestationObject(with bytes: [UInt8]) -> String {
        var parts = split(separator: "\"attestationObject\":\"", maxSplits: 1)
        let rest = parts[1].drop { $0 != "\"" }
        parts[1] = Substring(Base64URL.encode(bytes)) + rest
        return parts.joined(separator: "\"attestationObject\":\"")
    }
}
