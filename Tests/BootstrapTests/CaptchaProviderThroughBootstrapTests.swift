import Foundation
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// `captcha-email-code` with Cloudflare Turnstile through the real `bootstrap`: Create hands the client the widget's
/// public parameters, Verify checks the client's token with siteverify (a stand-in of the provider's protocol on
/// 127.0.0.1), for real and unknown users alike, and the secret never leaves the function.
@Suite struct CaptchaProviderThroughBootstrapTests {
    static let script = BootstrapProcess.repositoryRoot.appendingPathComponent(
        "Tests/CaptchaVerificationTests/Support/siteverify_standin.py").path
    static let secret = "0x4AAAAAAASecretKeyForTestsOnly"
    static let siteKey = "0x4AAAAAAASiteKey"

    static func token(_ scenario: String) -> String { "\(scenario).\(UInt64.random(in: 0...UInt64.max))" }

    @Test(.requires(.python3)) func turnstileTokensAreCheckedWithSiteverify() async throws {
        let port = LocalServerProcess.freePort()
        let standIn = try LocalServerProcess(
            arguments: ["python3", Self.script, String(port), Self.secret, Self.siteKey], port: port, startTimeout: .seconds(15))
        defer { standIn.stop() }
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: [
                "CHALLENGE_FLOW": "captcha-email-code", "CODE_HASH_SECRET": BootstrapProcessTests.secret,
                "CODE_DELIVERY": "outbox", "OUTBOX_PATH": BootstrapProcessTests.outboxPath(),
                "CAPTCHA_PROVIDER": "turnstile", "CAPTCHA_SITE_KEY": Self.siteKey, "CAPTCHA_SECRET": Self.secret,
                "CAPTCHA_ALLOWED_HOSTNAMES": "login.example.com", "CAPTCHA_ACTION": "login",
                "CAPTCHA_ENDPOINT": "http://127.0.0.1:\(port)/turnstile/siteverify",
            ])

        var responses: [[UInt8]] = []
        for (eventName, userNotFound) in [("captcha-email-code/02-create-captcha.json", false), ("captcha-email-code/02-create-captcha.json", true)] {
            var event = try sampleEvent(eventName)
            if userNotFound {
                event["userName"] = "nobody-here"
                var request = try #require(event["request"]?.objectValue)
                request["userNotFound"] = true
                request["userAttributes"] = [:]
                event["request"] = .object(request)
            }
            guard case .response(let created) = try await invoke(emulator, event) else {
                Issue.record("Create failed: \(bootstrap.standardError())"); return
            }
            responses.append(created)
            let create = try #require(try JSONValue(parsing: created).objectValue)
            let parameters = try #require(member(create, "response", "publicChallengeParameters")?.objectValue)
            #expect(parameters["challenge"] == "CAPTCHA")
            #expect(parameters["provider"] == "turnstile")
            #expect(parameters["siteKey"] == .string(Self.siteKey))
            #expect(parameters["action"] == "login")
            #expect(parameters["captchaUrl"] == nil)

            let verify = { (token: String) async throws -> JSONValue? in
                var verifyEvent = try verifyEvent(for: create, answer: token)
                verifyEvent["userName"] = event["userName"]
                var request = try #require(verifyEvent["request"]?.objectValue)
                request["userNotFound"] = .bool(userNotFound)
                verifyEvent["request"] = .object(request)
                guard case .response(let verified) = try await invoke(emulator, verifyEvent) else { return nil }
                return try JSONValue(parsing: verified).objectValue.flatMap { member($0, "response", "answerCorrect") }
            }
            // A CAPTCHA proves a human, not an identity: real and unknown users are judged alike.
            #expect(try await verify(Self.token("pass")) == .bool(true), "unknown user: \(userNotFound)")
            #expect(try await verify(Self.token("wrong-host")) == .bool(false))
            #expect(try await verify(Self.token("wrong-action")) == .bool(false))
            #expect(try await verify(Self.token("error")) == .bool(false))
            #expect(try await verify(Self.token("garbage")) == .bool(false))
        }

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(log.contains("CAPTCHA token accepted by turnstile"), "\(log)")
        #expect(log.contains("CAPTCHA token rejected"))
        for text in [log] + responses.map({ String(decoding: $0, as: UTF8.self) }) {
            #expect(!text.contains(Self.secret), "the CAPTCHA secret must not leave the function")
        }
    }
}
