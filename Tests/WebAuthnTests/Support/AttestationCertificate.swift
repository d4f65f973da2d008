import Foundation
import TestSupport

extension ExternalTool {
    /// The `openssl` command (Debian package openssl), which makes the attestation certificates.
    static let openSSL = ExternalTool("openssl (apt openssl)") { Tool.available("openssl") }
}

/// A packed attestation certificate made with the `openssl` command, as a vendor would make one, with its key.
struct AttestationCertificate {
    /// What goes into the certificate; the defaults meet WebAuthn §8.2.1.
    struct Profile {
        var country: String? = "US"
        var organization: String? = "Test Authenticators"
        var organizationalUnit: String? = "Authenticator Attestation"
        var commonName: String? = "Test Passkey Model"
        /// The basicConstraints line of the configuration, nil for none.
        var basicConstraints: String? = "CA:FALSE"
        /// The AAGUID to put in the FIDO extension, nil for none.
        var aaguid: [UInt8]? = Fixture.aaguid
        var aaguidCritical = false
        /// `openssl req -newkey` argument.
        var keyType = "ec"
        var keyOptions = ["-pkeyopt", "ec_paramgen_curve:P-256"]
    }

    let der: [UInt8]
    let key: TestKey

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `openssl req -x509` in a fresh temporary folder.
    init(_ profile: Profile = Profile()) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("webauthn-cert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var subject: [String] = []
        if let value = profile.country { subject.append("C = \(value)") }
        if let value = profile.organization { subject.append("O = \(value)") }
        if let value = profile.organizationalUnit { subject.append("OU = \(value)") }
        if let value = profile.commonName { subject.append("CN = \(value)") }
        var extensions = ["subjectKeyIdentifier = hash"]
        if let value = profile.basicConstraints { extensions.append("basicConstraints = \(value)") }
        if let aaguid = profile.aaguid {
            let der = ([0x04, 0x10] + aaguid).map { String(format: "%02X", $0) }.joined(separator: ":")
            extensions.append("1.3.6.1.4.1.45724.1.1.4 = \(profile.aaguidCritical ? "critical," : "")DER:\(der)")
        }
        let config = """
            [req]
            distinguished_name = subject
            prompt = no
            x509_extensions = extensions
            [subject]
            \(subject.joined(separator: "\n"))
            [extensions]
            \(extensions.joined(separator: "\n"))

            """
        let configFile = directory.appendingPathComponent("openssl.cnf")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        let keyFile = directory.appendingPathComponent("key.pem")
        let certificateFile = directory.appendingPathComponent("cert.der")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-new", "-config", configFile.path, "-newkey", profile.keyType,
        ] + profile.keyOptions + [
            "-nodes", "-keyout", keyFile.path, "-out", certificateFile.path, "-outform", "DER", "-days", "2",
        ]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl req failed: \(String(decoding: message, as: UTF8.self))")
        }
        der = Array(try Data(contentsOf: certificateFile))
        key = TestKey(pem: Array(try Data(contentsOf: keyFile)))
    }
}
