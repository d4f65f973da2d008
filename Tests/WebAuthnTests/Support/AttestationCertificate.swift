@testable import CognitoChallengeTesting
import DevelopmentSupport
import Foundation
import Invoker
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
        /// The certificate key's algorithm.
        var keyAlgorithm = COSEAlgorithm.es256
        /// An X.509 version 1 certificate (no extensions at all), signed by `openssl x509 -req` from a request.
        var version1 = false
    }

    let der: [UInt8]
    let key: KeyHandle

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
        let keyType = switch profile.keyAlgorithm {
        case .es256: ["ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        case .edDSA: ["ed25519"]
        case .rs256: ["rsa:2048"]
        }
        let newKey = ["-config", configFile.path, "-newkey"] + keyType + ["-nodes", "-keyout", keyFile.path]
        if profile.version1 {
            let request = directory.appendingPathComponent("request.pem").path
            try Self.openssl(["req", "-new"] + newKey + ["-out", request])
            try Self.openssl([
                "x509", "-req", "-in", request, "-signkey", keyFile.path, "-days", "2", "-outform", "DER", "-out",
                certificateFile.path,
            ])
        } else {
            try Self.openssl(["req", "-x509", "-new"] + newKey + ["-out", certificateFile.path, "-outform", "DER", "-days", "2"])
        }
        let keyDER = directory.appendingPathComponent("key.der")
        try Self.openssl(["pkey", "-in", keyFile.path, "-outform", "DER", "-out", keyDER.path])
        der = Array(try Data(contentsOf: certificateFile))
        key = try KeyHandle.load(pkcs8DER: Array(try Data(contentsOf: keyDER)), algorithm: profile.keyAlgorithm)
    }

    /// Runs `openssl` with `arguments`, as a real process.
    private static func openssl(_ arguments: [String]) throws {
        let finished = try ProgramRun("/usr/bin/env", ["openssl"] + arguments)
        guard finished.status == 0 else {
            throw Failure(description: "openssl \(arguments[0]) failed: \(finished.errors)")
        }
    }
}
