import CurlHTTP
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The real `bootstrap` with `CODE_DELIVERY=ses`, sending through moto's SES API on 127.0.0.1: the code travels
/// bootstrap → SES server → this test → Verify through the same bootstrap.
@Suite(.requires(.motoServer)) struct SESDeliveryThroughBootstrapTests {
    @Test func aCodeSentThroughSESVerifies() async throws {
        let (moto, endpoint) = try startMoto()
        defer { moto.stop() }
        let http = try CurlSession()
        // Without INITIAL_NO_AUTH_ACTION_COUNT moto accepts any key; it reads the region from the signature.
        let identity = Array(#"{"EmailIdentity":"no-reply@example.com"}"#.utf8)
        let signed = SigV4Signer(credentials: Self.credentials, region: "eu-west-1", service: "ses").sign(
            SignableRequest(
                method: "POST", host: String(endpoint.dropFirst("http://".count)), path: "/v2/email/identities",
                headers: [.init("Content-Type", "application/json")], body: identity),
            at: .now())
        let verified = try http.perform(HTTPRequest(
            method: .post, url: endpoint + "/v2/email/identities", headers: signed.headers.map { HTTPHeader($0.name, $0.value) },
            body: identity, totalTimeout: .seconds(10)))
        try #require(verified.status == 200, "CreateEmailIdentity: \(String(decoding: verified.body, as: UTF8.self))")

        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: [
                "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "ses", "SES_ENDPOINT": endpoint,
                "SES_FROM_ADDRESS": "Example Sign-in <no-reply@example.com>", "AWS_REGION": "eu-west-1",
                "AWS_ACCESS_KEY_ID": "AKIDLOCAL", "AWS_SECRET_ACCESS_KEY": "local-secret", "AWS_SESSION_TOKEN": "local-token",
            ])

        guard case .response(let created) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json"))
        else { Issue.record("Create failed: \(bootstrap.standardError())"); return }
        let create = try #require(try JSONValue(parsing: created).objectValue)

        let data = try http.perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
        let sent = try JSONValue(parsing: data.body).objectValue?["ses"]?.objectValue?["Message"]?.arrayValue ?? []
        #expect(sent.count == 1)
        let message = try #require(sent.first?.objectValue)
        #expect(message["destinations"]?.objectValue?["ToAddresses"] == ["jane.doe@example.com"])
        #expect(message["subject"]?.stringValue?.isEmpty == false)
        let body = try #require(message["body"]?.stringValue)
        let code = try #require(Self.code(in: body), "no six-digit code in the email body")
        #expect(!created.containsSubsequence(Array(code.utf8)), "the code must not be in the response")

        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(!log.contains(code))
        #expect(!log.contains("local-secret"))
    }

    static let credentials = AWSCredentials(accessKeyID: "AKIDLOCAL", secretAccessKey: "local-secret")

    /// The first run of exactly six digits in the body.
    static func code(in body: String) -> String? {
        let characters = Array(body)
        var index = 0
        while index < characters.count {
            guard characters[index].isASCII, characters[index].isNumber else { index += 1; continue }
            var end = index
            while end < characters.count, characters[end].isASCII, characters[end].isNumber { end += 1 }
            if end - index == 6 { return String(characters[index..<end]) }
            index = end
        }
        return nil
    }
}
