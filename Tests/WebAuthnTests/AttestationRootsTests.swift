import ChallengeCrypto
import Foundation
@testable import ChallengeFlows
@testable import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

/// Attestation chains verified to configured trust anchors (issue 46, item 3): an AAGUID allow-list holds back a
/// software key that makes its own packed `x5c`, and lets through a model whose chain reaches a configured root.
@Suite struct AttestationRootsTests {
    static let chainRefusal = "the attestation certificate chain does not verify to a trusted root: "

    /// Registers with SoftwareAuthenticator under `policy`, its packed `x5c` shaped as `chain`.
    static func register(
        _ authenticator: inout SoftwareAuthenticator, chain: AttestationChain, policy: AttestationPolicy
    ) throws -> VerifiedRegistration {
        try LifecycleTests.register(
            &authenticator, .es256, attestation: "direct", choices: .init(attestation: .packedCertificate(chain: chain)),
            policy: policy)
    }

    /// The allow-list of SoftwareAuthenticator's model, trusting `roots`.
    static func allowList(_ roots: [[UInt8]]) -> AttestationPolicy {
        AttestationPolicy(
            conveyance: .direct, allowedAAGUIDs: [SoftwareAuthenticator.defaultAAGUID], trustedRoots: roots)
    }

    /// The OpenSSL reason of a chain refusal; nil (and an issue) for any other outcome.
    static func chainRefusalReason(_ body: () throws -> VerifiedRegistration, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
        do {
            _ = try body()
            Issue.record("the registration was accepted", sourceLocation: sourceLocation)
        } catch WebAuthnError.attestation(let detail) where detail.hasPrefix(chainRefusal) {
            return String(detail.dropFirst(chainRefusal.count))
        } catch {
            Issue.record("refused otherwise: \(error)", sourceLocation: sourceLocation)
        }
        return nil
    }

    @Test("a self-signed chain under an allow-list is refused while a chain to a configured root passes")
    func selfSignedRefusedChainToRootPasses() throws {
        var authenticator = try SoftwareAuthenticator()
        let policy = Self.allowList([authenticator.attestationRootCertificate])
        // The self-made leaf meets §8.2.1, carries the allowed AAGUID and signs: only the chain gives it away.
        let reason = Self.chainRefusalReason { try Self.register(&authenticator, chain: .selfSigned, policy: policy) }
        #expect(reason?.contains("self-signed") == true || reason?.contains("self signed") == true, "\(reason ?? "")")
        let registration = try Self.register(&authenticator, chain: .issuedByRoot, policy: policy)
        #expect(registration.attestedByCertificate)
        #expect(registration.credential.aaguid == SoftwareAuthenticator.defaultAAGUID)
    }

    @Test func aChainToAnotherRootIsRefused() throws {
        var authenticator = try SoftwareAuthenticator()
        let otherModel = try SoftwareAuthenticator()
        let policy = Self.allowList([otherModel.attestationRootCertificate])
        let reason = Self.chainRefusalReason { try Self.register(&authenticator, chain: .issuedByRoot, policy: policy) }
        #expect(reason?.contains("local issuer") == true, "\(reason ?? "")")
        // Any one configured root is enough.
        let both = Self.allowList([otherModel.attestationRootCertificate, authenticator.attestationRootCertificate])
        #expect(try Self.register(&authenticator, chain: .issuedByRoot, policy: both).attestedByCertificate)
    }

    @Test func anIntermediateInX5cBetweenLeafAndRootPasses() throws {
        var authenticator = try SoftwareAuthenticator()
        let policy = Self.allowList([authenticator.attestationRootCertificate])
        #expect(try Self.register(&authenticator, chain: .throughIntermediate, policy: policy).attestedByCertificate)
        // The same shape under a root that is not configured is refused.
        let otherModel = try SoftwareAuthenticator()
        let reason = Self.chainRefusalReason {
            try Self.register(
                &authenticator, chain: .throughIntermediate, policy: Self.allowList([otherModel.attestationRootCertificate]))
        }
        #expect(reason != nil)
    }

    @Test func rootsWithoutAnAllowListStillRefuseASelfSignedChain() throws {
        var authenticator = try SoftwareAuthenticator()
        let policy = AttestationPolicy(conveyance: .direct, trustedRoots: [authenticator.attestationRootCertificate])
        #expect(Self.chainRefusalReason { try Self.register(&authenticator, chain: .selfSigned, policy: policy) } != nil)
        #expect(try Self.register(&authenticator, chain: .issuedByRoot, policy: policy).attestedByCertificate)
    }

    @Test func anAllowListWithoutRootsRefusesEvenAGoodChain() throws {
        var authenticator = try SoftwareAuthenticator()
        #expect(throws: WebAuthnError.attestation("an AAGUID allow-list needs trusted roots to verify attestation certificate chains against")) {
            try Self.register(&authenticator, chain: .issuedByRoot, policy: Self.allowList([]))
        }
    }

    @Test func noneAndSelfAttestationDoNotSatisfyAnAllowList() throws {
        var authenticator = try SoftwareAuthenticator()
        // Conveyance none, so that only the allow-list stands in the way.
        let policy = AttestationPolicy(
            allowedAAGUIDs: [SoftwareAuthenticator.defaultAAGUID], trustedRoots: [authenticator.attestationRootCertificate])
        for (format, name) in [(SoftwareAuthenticator.AttestationFormat.none, "none"), (.packedSelf, "packed")] {
            #expect(
                throws: WebAuthnError.attestation(
                    "an allowed AAGUID counts only with a certificate chain to a trusted root, which this \(name) statement does not carry")
            ) {
                try LifecycleTests.register(&authenticator, .es256, choices: .init(attestation: format), policy: policy)
            }
        }
    }

    @Test func section8_2_1IsCheckedBeforeTheChain() throws {
        var authenticator = try SoftwareAuthenticator()
        let policy = Self.allowList([authenticator.attestationRootCertificate])
        #expect(throws: WebAuthnError.attestation("the attestation certificate is a CA certificate")) {
            try LifecycleTests.register(
                &authenticator, .es256, choices: .init(attestation: .packedCertificate(flaw: .certificateAuthority)),
                policy: policy)
        }
    }

    // MARK: - Reading roots from PEM

    static func pem(_ der: [UInt8]) -> [UInt8] {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END CERTIFICATE-----")
        return Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test func readsRootsFromPEM() throws {
        let first = try SoftwareAuthenticator().attestationRootCertificate
        let second = try SoftwareAuthenticator().attestationRootCertificate
        let text = Array("# FIDO roots\n".utf8) + Self.pem(first) + Self.pem(second) + Self.pem(first)
        #expect(try AttestationRoots.parse(pem: text) == [first, second])
    }

    @Test func refusesPEMThatIsNotRootCertificates() throws {
        let authenticator = try SoftwareAuthenticator()
        let leaf = try authenticator.attestationCertificates()[0]
        #expect(throws: AttestationRoots.Problem(description: "it holds no -----BEGIN CERTIFICATE----- block")) {
            try AttestationRoots.parse(pem: Array("not a certificate".utf8))
        }
        #expect(throws: AttestationRoots.Problem(description: "certificate 1 is not a CA certificate (basic constraints CA:TRUE)")) {
            try AttestationRoots.parse(pem: Self.pem(leaf))
        }
        let broken = Self.pem(authenticator.attestationRootCertificate)
            + Array("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)
        #expect(throws: AttestationRoots.Problem(description: "certificate 2 is not a PEM X.509 certificate")) {
            try AttestationRoots.parse(pem: broken)
        }
    }
}
