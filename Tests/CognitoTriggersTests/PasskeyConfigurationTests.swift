import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import Testing
import WebAuthnCeremonies

@Suite struct PasskeyConfigurationTests {
    static let minimal = ["CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox"]
    static let passkeys = minimal.merging(["PASSKEY_RP_ID": "example.com", "PASSKEY_ALLOWED_ORIGINS": "https://example.com"]) { $1 }

    /// A PEM file of `certificates` (DER) in a fresh temporary path, removed after `body`.
    static func withPEMFile<T>(_ certificates: [[UInt8]], _ body: (String) throws -> T) throws -> T {
        let text = certificates.map { der in
            let base64 = Data(der).base64EncodedString(options: .lineLength64Characters)
            return "-----BEGIN CERTIFICATE-----\n\(base64)\n-----END CERTIFICATE-----\n"
        }.joined()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).pem").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    @Test func noPasskeySettingsWithoutTheRelyingParty() throws {
        #expect(try TriggerConfiguration(environment: Self.minimal).passkeys == nil)
    }

    @Test func defaults() throws {
        let settings = try #require(try TriggerConfiguration(environment: Self.passkeys).passkeys)
        #expect(settings.relyingParty == RelyingParty(id: "example.com", name: "example.com", allowedOrigins: ["https://example.com"]))
        #expect(settings.attestation == AttestationPolicy(conveyance: .none, allowedAAGUIDs: nil))
        #expect(settings.maxCredentialsPerUser == 10)
        #expect(settings.timeoutMilliseconds == 300_000)
    }

    @Test func everySettingRead() throws {
        let roots = [try SoftwareAuthenticator().attestationRootCertificate, try SoftwareAuthenticator().attestationRootCertificate]
        try Self.withPEMFile(roots) { path in try Self.everySettingRead(rootsPath: path, roots: roots) }
    }

    static func everySettingRead(rootsPath: String, roots: [[UInt8]]) throws {
        let environment = Self.passkeys.merging([
            "PASSKEY_ATTESTATION_ROOTS": rootsPath,
            "PASSKEY_RP_NAME": "Example Inc.",
            "PASSKEY_ALLOWED_ORIGINS": " https://example.com, https://login.example.com:8443 ,android:apk-key-hash:oXLO3K5HR0thXFTVEKXYSo3qMDLpWFh0MLQTU4vj8zM",
            "PASSKEY_ATTESTATION": "direct",
            "PASSKEY_AAGUIDS": "EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4, 00000000-0000-0000-0000-000000000001",
            "PASSKEY_MAX_CREDENTIALS": "3",
            "PASSKEY_TIMEOUT_MS": "60000",
        ]) { $1 }
        let settings = try #require(try TriggerConfiguration(environment: environment).passkeys)
        #expect(settings.relyingParty.name == "Example Inc.")
        #expect(settings.relyingParty.allowedOrigins
            == ["https://example.com", "https://login.example.com:8443", "android:apk-key-hash:oXLO3K5HR0thXFTVEKXYSo3qMDLpWFh0MLQTU4vj8zM"])
        #expect(settings.attestation.conveyance == .direct)
        #expect(settings.attestation.allowedAAGUIDs == [
            [0xEA, 0x9B, 0x8D, 0x66, 0x4D, 0x01, 0x1D, 0x21, 0x3C, 0xE4, 0xB6, 0xB4, 0x8C, 0xB5, 0x75, 0xD4],
            Array(repeating: 0, count: 15) + [1],
        ])
        #expect(settings.attestation.trustedRoots == roots)
        #expect(settings.maxCredentialsPerUser == 3)
        #expect(settings.timeoutMilliseconds == 60_000)
    }

    static func refusal(_ overrides: [String: String]) -> String {
        let environment = Self.passkeys.merging(overrides) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        return error?.description ?? ""
    }

    @Test("an AAGUID allow-list without attestation roots is refused at start, naming both variables")
    func allowListWithoutRoots() {
        let message = Self.refusal([
            "PASSKEY_ATTESTATION": "direct", "PASSKEY_AAGUIDS": "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
        ])
        #expect(message.hasPrefix("PASSKEY_ATTESTATION_ROOTS is not set: PASSKEY_AAGUIDS is set"), "\(message)")
    }

    @Test func rootsNeedDirectAttestation() throws {
        let root = try SoftwareAuthenticator().attestationRootCertificate
        let message = try Self.withPEMFile([root]) { path in Self.refusal(["PASSKEY_ATTESTATION_ROOTS": path]) }
        #expect(message.hasPrefix("PASSKEY_ATTESTATION_ROOTS="), "\(message)")
        #expect(message.contains("PASSKEY_ATTESTATION=direct"), "\(message)")
    }

    @Test func rootsWithoutAnAllowListAreRead() throws {
        let root = try SoftwareAuthenticator().attestationRootCertificate
        let settings = try Self.withPEMFile([root]) { path in
            try TriggerConfiguration(
                environment: Self.passkeys.merging(["PASSKEY_ATTESTATION": "direct", "PASSKEY_ATTESTATION_ROOTS": path]) { $1 }
            ).passkeys
        }
        #expect(settings?.attestation == AttestationPolicy(conveyance: .direct, trustedRoots: [root]))
    }

    @Test func anUnreadableRootsFileNamesTheVariableAndThePath() {
        let path = "/nonexistent/fido-roots.pem"
        let message = Self.refusal([
            "PASSKEY_ATTESTATION": "direct", "PASSKEY_AAGUIDS": "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4",
            "PASSKEY_ATTESTATION_ROOTS": path,
        ])
        #expect(message.hasPrefix("PASSKEY_ATTESTATION_ROOTS=\"\(path)\" is not valid"), "\(message)")
        #expect(message.contains("cannot read \(path)"), "\(message)")
    }

    @Test func aRootsFileWithoutACACertificateIsRefused() throws {
        // A file with no certificate at all.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID().uuidString).pem").path
        try "no certificates here\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let empty = Self.refusal(["PASSKEY_ATTESTATION": "direct", "PASSKEY_ATTESTATION_ROOTS": path])
        #expect(empty.hasPrefix("PASSKEY_ATTESTATION_ROOTS=\"\(path)\""), "\(empty)")
        #expect(empty.contains("no -----BEGIN CERTIFICATE-----"), "\(empty)")
        // A leaf (CA:FALSE) where a root belongs.
        let leaf = try SoftwareAuthenticator().attestationCertificates()[0]
        let notCA = try Self.withPEMFile([leaf]) { leafPath in
            Self.refusal(["PASSKEY_ATTESTATION": "direct", "PASSKEY_ATTESTATION_ROOTS": leafPath])
        }
        #expect(notCA.hasPrefix("PASSKEY_ATTESTATION_ROOTS="), "\(notCA)")
        #expect(notCA.contains("certificate 1 is not a CA certificate"), "\(notCA)")
    }

    @Test func localhostMayUsePlainHTTP() throws {
        let environment = Self.minimal.merging(
            ["PASSKEY_RP_ID": "localhost", "PASSKEY_ALLOWED_ORIGINS": "http://localhost:5173,http://localhost"]) { $1 }
        let settings = try #require(try TriggerConfiguration(environment: environment).passkeys)
        #expect(settings.relyingParty.allowedOrigins == ["http://localhost:5173", "http://localhost"])
    }

    @Test(arguments: [
        (["PASSKEY_RP_ID": "127.0.0.1"], "PASSKEY_RP_ID"),
        (["PASSKEY_RP_ID": "[::1]"], "PASSKEY_RP_ID"),
        (["PASSKEY_RP_ID": "https://example.com"], "PASSKEY_RP_ID"),
        (["PASSKEY_RP_ID": "Example.com"], "PASSKEY_RP_ID"),
        (["PASSKEY_RP_ID": "example.com:443"], "PASSKEY_RP_ID"),
        (["PASSKEY_ALLOWED_ORIGINS": ""], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "example.com"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://example.com/"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://example.com/sign-in"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://example.org"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://badexample.com"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "http://example.com"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://example.com,"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ALLOWED_ORIGINS": "https://example.com:0"], "PASSKEY_ALLOWED_ORIGINS"),
        (["PASSKEY_ATTESTATION": "indirect"], "PASSKEY_ATTESTATION"),
        (["PASSKEY_AAGUIDS": "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4"], "PASSKEY_AAGUIDS"),
        (["PASSKEY_ATTESTATION": "direct", "PASSKEY_AAGUIDS": "ea9b8d664d011d213ce4b6b48cb575d4"], "PASSKEY_AAGUIDS"),
        (["PASSKEY_MAX_CREDENTIALS": "0"], "PASSKEY_MAX_CREDENTIALS"),
        (["PASSKEY_MAX_CREDENTIALS": "ten"], "PASSKEY_MAX_CREDENTIALS"),
        (["PASSKEY_TIMEOUT_MS": "1000"], "PASSKEY_TIMEOUT_MS"),
    ])
    func invalidSettingNamesItsVariable(overrides: [String: String], variable: String) {
        let environment = Self.passkeys.merging(overrides) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.hasPrefix(variable) == true, "\(error?.description ?? "")")
    }

    @Test("a PASSKEY_* setting without PASSKEY_RP_ID is a mistake, not a silent no")
    func strayPasskeySetting() {
        let environment = Self.minimal.merging(["PASSKEY_ALLOWED_ORIGINS": "https://example.com"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.hasPrefix("PASSKEY_RP_ID is not set") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("PASSKEY_ALLOWED_ORIGINS") == true)
    }
}
