import CurlHTTP
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The packaged bootstrap sending a code over HTTPS from a chroot laid out like provided.al2023, to moto's SES API
/// behind TLS with a certificate for `email.test.local` from a test CA: the zip's statically linked libcurl and
/// OpenSSL must find the CA bundle where Amazon Linux keeps it (`SSL_CERT_FILE`, as the template sets), resolve the
/// name through `/etc/hosts`, and verify the server's certificate. Gated like ``PackagedBootstrapTests``.
@Suite(.serialized, .requires(.motoServer, .unzip)) struct PackagedHTTPSTests {
    static let caBundlePath = "etc/pki/tls/certs/ca-bundle.crt"
    static let sender = "Example Sign-in <no-reply@example.com>"

    @Test(
        "the packaged bootstrap sends a code over verified HTTPS from a provided.al2023-like chroot, and it verifies",
        .enabled(if: PackagedBootstrapTests.canRun, "needs DEPLOY_ZIP=<zip from Deploy/package.sh> and root for chroot"))
    func aCodeSentOverHTTPSVerifies() async throws {
        let scene = try HTTPSScene()
        defer { scene.tearDown() }
        let root = try scene.root(trusting: scene.pki.caCertificate)
        #expect(try root.entries() == ["etc", "etc/hosts", "etc/pki", "etc/pki/tls", "etc/pki/tls/certs", Self.caBundlePath, "tmp", "var", "var/task"])

        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try scene.bootstrap(in: root, runtimeAPI: address)
        guard case .response(let created) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json"))
        else { Issue.record("Create failed: \(bootstrap.standardError())"); return }
        let create = try #require(try JSONValue(parsing: created).objectValue)

        let sent = try scene.sentEmails()
        #expect(sent.count == 1)
        let message = try #require(sent.first)
        #expect(message["destinations"]?.objectValue?["ToAddresses"] == ["jane.doe@example.com"])
        #expect(message["source"]?.stringValue == Self.sender)
        let code = try #require(SESDeliveryThroughBootstrapTests.code(in: message["body"]?.stringValue ?? ""), "no code in the email")
        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))
        #expect(try await answerCorrect(emulator, create: create, answer: wrongCode(for: code)) == .bool(false))

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        #expect(!bootstrap.standardError().contains(code))
    }

    @Test(
        "with a CA bundle that lacks the server's CA, Create fails with Function.DeliveryFailed and nothing is sent",
        .enabled(if: PackagedBootstrapTests.canRun, "needs DEPLOY_ZIP=<zip from Deploy/package.sh> and root for chroot"))
    func anUntrustedCertificateFailsDelivery() async throws {
        let scene = try HTTPSScene()
        defer { scene.tearDown() }
        let root = try scene.root(trusting: scene.pki.unrelatedCACertificate)

        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try scene.bootstrap(in: root, runtimeAPI: address)
        guard case .functionError(let error) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json")) else {
            Issue.record("Create succeeded against a server whose CA is not trusted: \(bootstrap.standardError())"); return
        }
        #expect(error.errorType == "Function.DeliveryFailed")
        let body = String(decoding: error.body, as: UTF8.self)
        #expect(!body.contains(TestPKI.serverName), "the client sees only a reference: \(body)")
        #expect(try scene.sentEmails().isEmpty)

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        // The detail is in the function's log under that reference.
        let log = bootstrap.standardError()
        #expect(log.contains("https://\(TestPKI.serverName):\(scene.moto.port)"), "the log names the endpoint: \(log)")
        #expect(log.contains("certificate"), "the failure is the certificate check, not the name or the connection: \(log)")
    }
}

/// The build's bootstrap, on this machine's libcurl and OpenSSL 3, sending a code over verified HTTPS to moto's SES API
/// with the test CA's certificate: the bootstrap leaves OpenSSL's legacy cipher table empty at start
/// (`OpenSSLStartup`), and TLS with certificate checks must work without it — a code sent to a server whose CA the
/// bootstrap trusts, none to one whose CA it does not. (Leaving the digest table empty too failed the first test:
/// "CA signature digest algorithm too weak".)
@Suite(.serialized, .requires(.motoServer)) struct HTTPSThroughBootstrapTests {
    @Test("the bootstrap sends a code over verified HTTPS, and it verifies")
    func aCodeSentOverHTTPSVerifies() async throws {
        let scene = try HTTPSScene()
        defer { scene.tearDown() }
        let emulator = RuntimeAPIEmulator()
        let bootstrap = try scene.bootstrap(trusting: scene.pki.caCertificate, runtimeAPI: try await emulator.start())
        guard case .response(let created) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json"))
        else { Issue.record("Create failed: \(bootstrap.standardError())"); return }
        let create = try #require(try JSONValue(parsing: created).objectValue)

        let message = try #require(try scene.sentEmails().first)
        let code = try #require(SESDeliveryThroughBootstrapTests.code(in: message["body"]?.stringValue ?? ""), "no code in the email")
        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
    }

    @Test("with a CA file that lacks the server's CA, Create fails with Function.DeliveryFailed and nothing is sent")
    func anUntrustedCertificateFailsDelivery() async throws {
        let scene = try HTTPSScene()
        defer { scene.tearDown() }
        let emulator = RuntimeAPIEmulator()
        let bootstrap = try scene.bootstrap(trusting: scene.pki.unrelatedCACertificate, runtimeAPI: try await emulator.start())
        guard case .functionError(let error) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json")) else {
            Issue.record("Create succeeded against a server whose CA is not trusted: \(bootstrap.standardError())"); return
        }
        #expect(error.errorType == "Function.DeliveryFailed")
        #expect(try scene.sentEmails().isEmpty)

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        #expect(bootstrap.standardError().contains("certificate"), "the failure is the certificate check: \(bootstrap.standardError())")
    }
}

/// One test's moto (TLS only, with the test server certificate), its certificates and, for the zip, its chroot.
private final class HTTPSScene {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("packaged-https-\(UUID().uuidString)")
    let pki: TestPKI
    let moto: LocalServerProcess
    /// This test's view of moto: over TLS to 127.0.0.1 (the certificate names that address too), trusting the test CA.
    private let session: CurlSession
    private var localEndpoint: String { "https://127.0.0.1:\(moto.port)" }

    init() throws {
        pki = try TestPKI(in: directory.appendingPathComponent("pki"))
        let port = LocalServerProcess.freePort()
        moto = try LocalServerProcess(
            arguments: [
                "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port),
                "-c", pki.serverCertificate.path, "-k", pki.serverKey.path,
            ],
            port: port)
        session = try CurlSession(caFile: pki.caCertificate.path)
        try verifySender()
    }

    func tearDown() {
        moto.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A provided.al2023-like root whose only CA bundle is `ca`, and whose `/etc/hosts` maps the server name.
    func root(trusting ca: URL) throws -> ProvidedRoot {
        try ProvidedRoot(
            in: directory.appendingPathComponent("root"), zip: PackagedBootstrapTests.zip,
            files: [
                PackagedHTTPSTests.caBundlePath: try Data(contentsOf: ca),
                "etc/hosts": Data("127.0.0.1 \(TestPKI.serverName)\n".utf8),
            ])
    }

    func bootstrap(in root: ProvidedRoot, runtimeAPI: String) throws -> BootstrapProcess {
        try BootstrapProcess(
            path: "/usr/sbin/chroot", arguments: [root.path.path, "/var/task/bootstrap"], runtimeAPI: runtimeAPI,
            environment: [
                "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "ses",
                "SES_ENDPOINT": "https://\(TestPKI.serverName):\(moto.port)", "SES_FROM_ADDRESS": PackagedHTTPSTests.sender,
                "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL", "AWS_SECRET_ACCESS_KEY": "local-secret",
                "SSL_CERT_FILE": "/" + PackagedHTTPSTests.caBundlePath, "LAMBDA_TASK_ROOT": "/var/task",
            ])
    }

    /// The build's bootstrap (not the zip's), trusting only `ca`, sending codes through SES at 127.0.0.1.
    func bootstrap(trusting ca: URL, runtimeAPI: String) throws -> BootstrapProcess {
        try BootstrapProcess(
            "bootstrap", runtimeAPI: runtimeAPI,
            environment: [
                "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "ses", "SES_ENDPOINT": localEndpoint,
                "SES_FROM_ADDRESS": PackagedHTTPSTests.sender, "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL",
                "AWS_SECRET_ACCESS_KEY": "local-secret", "SES_CA_FILE": ca.path,
            ])
    }

    /// The emails moto's SES holds.
    func sentEmails() throws -> [JSONObject] {
        let data = try session.perform(HTTPRequest(method: .get, url: localEndpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
        let messages = try JSONValue(parsing: data.body).objectValue?["ses"]?.objectValue?["Message"]?.arrayValue ?? []
        return messages.compactMap(\.objectValue)
    }

    /// Makes the sender's address a verified SES identity (moto accepts any key and reads the region from the signature).
    private func verifySender() throws {
        let body = Array(#"{"EmailIdentity":"no-reply@example.com"}"#.utf8)
        let signed = SigV4Signer(credentials: SESDeliveryThroughBootstrapTests.credentials, region: "us-east-1", service: "ses").sign(
            SignableRequest(
                method: "POST", host: "127.0.0.1:\(moto.port)", path: "/v2/email/identities",
                headers: [.init("Content-Type", "application/json")], body: body),
            at: .now())
        let answer = try session.perform(HTTPRequest(
            method: .post, url: localEndpoint + "/v2/email/identities", headers: signed.headers.map { HTTPHeader($0.name, $0.value) },
            body: body, totalTimeout: .seconds(10)))
        guard answer.status == 200 else {
            throw SenderNotVerified(answer: String(decoding: answer.body, as: UTF8.self))
        }
    }

    struct SenderNotVerified: Error, CustomStringConvertible {
        let answer: String
        var description: String { "moto did not verify the sender: \(answer)" }
    }
}
