import Foundation

/// A throw-away certificate authority and a server certificate it signed, made with the `openssl` command in a
/// directory of their own: the CA for `email.test.local` (and 127.0.0.1), and an unrelated CA that signed nothing.
struct TestPKI {
    static let serverName = "email.test.local"

    let directory: URL
    var caCertificate: URL { directory.appendingPathComponent("ca.crt") }
    var unrelatedCACertificate: URL { directory.appendingPathComponent("unrelated-ca.crt") }
    var serverCertificate: URL { directory.appendingPathComponent("server.crt") }
    var serverKey: URL { directory.appendingPathComponent("server.key") }

    init(in directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try makeCA("ca", name: "Packaged HTTPS Test CA")
        try makeCA("unrelated-ca", name: "Unrelated Test CA")
        try Data("""
            subjectAltName = DNS:\(Self.serverName), IP:127.0.0.1
            basicConstraints = critical, CA:FALSE
            keyUsage = critical, digitalSignature
            extendedKeyUsage = serverAuth

            """.utf8).write(to: directory.appendingPathComponent("server.ext"))
        try openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=\(Self.serverName)"])
        try openssl(["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
                     "-days", "2", "-extfile", "server.ext", "-out", "server.crt"])
    }

    private func makeCA(_ stem: String, name: String) throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", "\(stem).key", "-out", "\(stem).crt", "-days", "2", "-subj", "/CN=\(name)",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
    }

    private func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw OpenSSLFailed(arguments: arguments, output: output) }
    }

    struct OpenSSLFailed: Error, CustomStringConvertible {
        let arguments: [String]
        let output: String
        var description: String { "openssl \(arguments.joined(separator: " ")) failed: \(output)" }
    }
}
