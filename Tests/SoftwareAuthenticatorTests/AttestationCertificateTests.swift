import ChallengeCrypto
import CognitoChallengeTesting
import Foundation
import TestSupport
import Testing

extension ExternalTool {
    /// The OpenSSL command-line tool (Debian package openssl).
    static let openSSL = ExternalTool("openssl (apt openssl)") { Tool.available("openssl") }
}

/// The attestation certificates as the `openssl x509` command reads them.
@Suite(.requires(.openSSL)) struct AttestationCertificateTests {
    /// `openssl x509 -inform DER -noout -text` of the leaf certificate of a `packed` registration.
    static func certificateText(flaw: AttestationCertificateFlaw?) throws -> String {
        var authenticator = try SoftwareAuthenticator()
        let json = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [1]), origin: Ceremony.origin,
            choices: .init(attestation: .packedCertificate(flaw: flaw)))
        guard case .array(let chain)? = try Ceremony.attestationObject(json)["attStmt"]?["x5c"],
            case .bytes(let leaf)? = chain.first
        else { throw CertificateMissing() }
        return try openSSLText(leaf)
    }

    struct CertificateMissing: Error {}

    static func openSSLText(_ der: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("attestation-\(UUID()).der").path
        try Data(der).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // ext_dump: extensions openssl does not know (the AAGUID's) as a hex dump rather than raw characters.
        process.arguments = [
            "openssl", "x509", "-inform", "DER", "-in", path, "-noout", "-text", "-certopt", "ext_dump",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return text
    }

    /// The value of the AAGUID extension read back from `openssl`'s dump of it (lines such as
    /// `0000 - 04 10 5a 0f 7e 43 91 2c-4b 8d a6 1e 3c   ..Z.~C.,K...<` below the OID); nil when it has none.
    static func aaguidExtensionValue(_ text: String) -> [UInt8]? {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("1.3.6.1.4.1.45724.1.1.4:") }) else { return nil }
        var bytes: [UInt8] = []
        for line in lines[(start + 1)...] {
            guard line.count > 7, line.dropFirst(4).hasPrefix(" - ") else { break }
            let hexPart = line.dropFirst(7).components(separatedBy: "   ")[0].replacingOccurrences(of: "-", with: " ")
            bytes += hexPart.split(separator: " ").compactMap { UInt8($0, radix: 16) }
        }
        return bytes
    }

    @Test func theLeafMeetsSection8_2_1() throws {
        let text = try Self.certificateText(flaw: nil)
        #expect(text.contains("Version: 3 (0x2)"))
        #expect(
            text.contains(
                "Subject: C = US, O = Software Authenticator, OU = Authenticator Attestation, CN = Software Authenticator"
            ))
        #expect(
            text.contains("Issuer: C = US, O = Software Authenticator, CN = Software Authenticator Attestation Root"))
        #expect(text.contains("X509v3 Basic Constraints: \n                CA:FALSE"))
        #expect(text.contains("1.3.6.1.4.1.45724.1.1.4: \n"))
        // An OCTET STRING (04, 16 bytes) holding the AAGUID, inside the extension's own OCTET STRING.
        #expect(Self.aaguidExtensionValue(text) == [0x04, 0x10] + SoftwareAuthenticator.defaultAAGUID)
        #expect(text.contains("Public Key Algorithm: id-ecPublicKey") && text.contains("NIST CURVE: P-256"))
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"))
    }

    @Test func eachFlawBreaksItsRequirement() throws {
        let unit = try Self.certificateText(flaw: .wrongOrganizationalUnit)
        #expect(unit.contains("OU = Authenticator, CN"))
        #expect(!unit.contains("Authenticator Attestation,"))

        let authority = try Self.certificateText(flaw: .certificateAuthority)
        #expect(authority.contains("X509v3 Basic Constraints: \n                CA:TRUE"))

        let wrong = try Self.certificateText(flaw: .wrongAAGUID)
        let wrongValue = try #require(Self.aaguidExtensionValue(wrong))
        #expect(wrongValue.count == 18 && wrongValue != [0x04, 0x10] + SoftwareAuthenticator.defaultAAGUID)

        let critical = try Self.certificateText(flaw: .criticalAAGUIDExtension)
        #expect(critical.contains("1.3.6.1.4.1.45724.1.1.4: critical"))
    }

    @Test func theRootIsACertificateAuthority() throws {
        let text = try Self.openSSLText(SoftwareAuthenticator().attestationRootCertificate)
        #expect(text.contains("X509v3 Basic Constraints: critical\n                CA:TRUE"))
        #expect(
            text.contains("Subject: C = US, O = Software Authenticator, CN = Software Authenticator Attestation Root"))
    }
}
