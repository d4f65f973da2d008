@testable import CognitoChallengeTesting
@testable import ChallengeFlows
import TestSupport
import Testing
@testable import WebAuthnCeremonies

/// `packed` attestation with a certificate chain, against certificates the `openssl` command makes.
@Suite(.requires(.openSSL)) struct PackedCertificateTests {
    static func ceremony(_ algorithm: COSEAlgorithm, _ certificate: AttestationCertificate) -> RegistrationCeremony {
        var ceremony = RegistrationCeremony(KeyHandle.shared[algorithm]!)
        ceremony.statement = .packedCertificate(certificate: certificate.der, signer: certificate.key)
        return ceremony
    }

    static func verify(_ ceremony: RegistrationCeremony, _ policy: AttestationPolicy) throws -> VerifiedRegistration {
        var expectation = ceremony.expectation
        expectation.attestation = policy
        return try WebAuthn.verifyRegistration(ceremony.json, expecting: expectation)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsAGoodCertificateUnderDirectConveyance(algorithm: COSEAlgorithm) throws {
        let certificate = try AttestationCertificate()
        let ceremony = Self.ceremony(algorithm, certificate)
        let verified = try Self.verify(ceremony, AttestationPolicy(conveyance: .direct))
        #expect(verified.attestedByCertificate)
        #expect(verified.attestationFormat == "packed")
        #expect(verified.algorithm == algorithm.rawValue)
        #expect(try Self.verify(ceremony, AttestationPolicy()).attestedByCertificate)
        // The certificate signs itself: under an allow-list it proves no model, whatever AAGUID it carries.
        let otherRoot = try SoftwareAuthenticator().attestationRootCertificate
        let allowList = AttestationPolicy(conveyance: .direct, allowedAAGUIDs: [Fixture.aaguid], trustedRoots: [otherRoot])
        #expect(throws: WebAuthnError.self) { try Self.verify(ceremony, allowList) }
    }

    @Test func acceptsEd25519AndRSACertificatesAndOneWithoutTheAAGUIDExtension() throws {
        var profile = AttestationCertificate.Profile()
        profile.keyAlgorithm = .edDSA
        #expect(try Self.verify(Self.ceremony(.es256, try AttestationCertificate(profile)), AttestationPolicy(conveyance: .direct)).attestedByCertificate)
        profile.keyAlgorithm = .rs256
        profile.aaguid = nil
        #expect(try Self.verify(Self.ceremony(.edDSA, try AttestationCertificate(profile)), AttestationPolicy(conveyance: .direct)).attestedByCertificate)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func refusesABadSignature(algorithm: COSEAlgorithm) throws {
        var ceremony = Self.ceremony(algorithm, try AttestationCertificate())
        ceremony.signedBytes = Array("other bytes".utf8)
        for policy in [AttestationPolicy(), AttestationPolicy(conveyance: .direct)] {
            #expect(throws: WebAuthnError.attestation("the packed signature does not verify with the attestation certificate's key")) {
                try Self.verify(ceremony, policy)
            }
        }
    }

    @Test func refusesASignatureByAnotherKeyThanTheCertificates() throws {
        let certificate = try AttestationCertificate()
        var ceremony = RegistrationCeremony(KeyHandle.shared[.es256]!)
        ceremony.statement = .packedCertificate(certificate: certificate.der, signer: KeyHandle.others[.es256]!)
        #expect(throws: WebAuthnError.attestation("the packed signature does not verify with the attestation certificate's key")) {
            try Self.verify(ceremony, AttestationPolicy(conveyance: .direct))
        }
    }

    static let brokenProfiles: [(String, @Sendable (inout AttestationCertificate.Profile) -> Void, String)] = [
        ("X.509 v1", { $0.version1 = true }, "the attestation certificate is not X.509 v3"),
        ("no C", { $0.country = nil }, "the attestation certificate's subject has no C"),
        ("no O", { $0.organization = nil }, "the attestation certificate's subject has no O"),
        ("no CN", { $0.commonName = nil }, "the attestation certificate's subject has no CN"),
        ("OU other", { $0.organizationalUnit = "Authenticators" },
            "the attestation certificate's subject OU is not \"Authenticator Attestation\""),
        ("no OU", { $0.organizationalUnit = nil }, "the attestation certificate's subject has no OU"),
        ("CA", { $0.basicConstraints = "critical,CA:TRUE" }, "the attestation certificate is a CA certificate"),
        ("no basic constraints", { $0.basicConstraints = nil }, "the attestation certificate has no basic constraints"),
        ("other AAGUID", { $0.aaguid = Array(repeating: 0xee, count: 16) },
            "the attestation certificate's AAGUID is not the authenticator data's"),
        ("critical AAGUID", { $0.aaguidCritical = true }, "the attestation certificate's AAGUID extension is critical"),
    ]

    @Test(arguments: 0..<brokenProfiles.count)
    func refusesACertificateBreakingSection8_2_1(index: Int) throws {
        let (name, change, message) = Self.brokenProfiles[index]
        var profile = AttestationCertificate.Profile()
        change(&profile)
        let ceremony = Self.ceremony(.es256, try AttestationCertificate(profile))
        #expect(throws: WebAuthnError.attestation(message), "\(name)") {
            try Self.verify(ceremony, AttestationPolicy(conveyance: .direct))
        }
        // Conveyance none still verifies a packed statement that is present.
        #expect(throws: WebAuthnError.attestation(message), "\(name)") { try Self.verify(ceremony, AttestationPolicy()) }
    }

    @Test func refusesAnX5cThatIsNotACertificate() throws {
        var ceremony = RegistrationCeremony(KeyHandle.shared[.es256]!)
        ceremony.statement = .packedCertificate(certificate: [0x30, 0x03, 0x02, 0x01, 0x01], signer: KeyHandle.shared[.es256]!)
        #expect(throws: WebAuthnError.attestation("the attestation certificate is not DER X.509")) {
            try Self.verify(ceremony, AttestationPolicy())
        }
    }

    @Test func readsBasicConstraints() {
        #expect(Certificate.basicConstraintsCA([0x30, 0x00]) == false)
        #expect(Certificate.basicConstraintsCA([0x30, 0x03, 0x01, 0x01, 0xff]) == true)
        #expect(Certificate.basicConstraintsCA([0x30, 0x03, 0x01, 0x01, 0x00]) == false)
        #expect(Certificate.basicConstraintsCA([0x30, 0x03, 0x02, 0x01, 0x00]) == false)
        #expect(Certificate.basicConstraintsCA([0x30, 0x04, 0x01, 0x01, 0xff]) == nil)
        #expect(Certificate.basicConstraintsCA([0x31, 0x00]) == nil)
    }
}
