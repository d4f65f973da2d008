import ChallengeCrypto
import CognitoChallengeTesting
import Foundation
import LosslessJSON
import Testing

@Suite struct FileTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("authenticator-\(UUID()).json").path
    }

    @Test func saveThenLoadKeepsEverythingAndStillSigns() throws {
        var authenticator = try SoftwareAuthenticator(
            aaguid: Array(repeating: 0x42, count: 16), counterPolicy: .alwaysZero)
        for algorithm in COSEAlgorithm.allCases {
            _ = try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [algorithm.rawValue]),
                origin: Ceremony.origin,
                choices: .init(backupEligible: algorithm == .es256, backedUp: algorithm == .es256))
        }
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try authenticator.save(to: path)

        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        var loaded = try SoftwareAuthenticator(contentsOf: path)
        #expect(loaded.credentials == authenticator.credentials)
        #expect(loaded.aaguid == authenticator.aaguid)
        #expect(loaded.counterPolicy == .alwaysZero)
        #expect(loaded.attestationRootCertificate == authenticator.attestationRootCertificate)
        #expect(loaded.fileJSON() == authenticator.fileJSON())

        // The loaded keys sign assertions that verify with the public keys registered before saving.
        for credential in authenticator.credentials {
            let json = try loaded.authenticate(
                optionsJSON: Ceremony.requestOptions(challenge: [9], allow: [credential.id]), origin: Ceremony.origin)
            let signed =
                try Ceremony.responseBytes(json, "authenticatorData")
                + SHA256.hash(try Ceremony.responseBytes(json, "clientDataJSON"))
            #expect(
                OpenSSLCheck.verifies(
                    try Ceremony.responseBytes(json, "signature"), of: signed,
                    publicKey: try credential.subjectPublicKeyInfo()))
        }
    }

    @Test func savingReplacesAFileOthersCouldReadWithAPrivateOne() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(
            FileManager.default.createFile(
                atPath: path, contents: Data("old".utf8), attributes: [.posixPermissions: 0o644]))
        try SoftwareAuthenticator().save(to: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        #expect(try SoftwareAuthenticator(contentsOf: path).credentials.isEmpty)
    }

    @Test func aDamagedFileIsRefusedWithItsReason() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var authenticator = try SoftwareAuthenticator()
        _ = try authenticator.register(optionsJSON: Ceremony.creationOptions(challenge: [1]), origin: Ceremony.origin)
        guard case .object(var root) = authenticator.fileJSON(), case .array(var entries)? = root["credentials"],
            case .object(var entry) = entries[0]
        else {
            Issue.record("unexpected file layout")
            return
        }
        entry["algorithm"] = 5
        entries[0] = .object(entry)
        root["credentials"] = .array(entries)
        try Data(JSONValue.object(root).serialized()).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: SoftwareAuthenticatorError.malformedFile(
                path: path, reason: "$.credentials[0].algorithm 5 is not -7, -8 or -257")
        ) {
            try SoftwareAuthenticator(contentsOf: path)
        }
        #expect(throws: SoftwareAuthenticatorError.self) {
            try SoftwareAuthenticator(contentsOf: path + ".absent")
        }
    }
}
