import CurlHTTP
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The real `bootstrap` with `CHALLENGE_FLOW=email-or-sms-code` (`email-code|sms-code`): emails go to the outbox,
/// text messages through moto's SNS API on 127.0.0.1 (`SMS_DELIVERY=sns`). The app chooses the step at the first
/// challenge (choose-method) and Cognito hands its `ClientMetadata` `method` to the next Create; a texted code travels
/// bootstrap → SNS server → this test → Verify through the same bootstrap.
@Suite(.requires(.motoServer)) struct SMSDeliveryThroughBootstrapTests {
    static let phone = "+15555550100"

    /// The corpus's Create after jane (with a verified phone number) chose `method`.
    static func create(method: String) throws -> JSONObject {
        var event = try sampleEvent("email-or-sms-code/07-create-code-by-sms.json")
        var request = event["request"]?.objectValue ?? JSONObject()
        request["clientMetadata"] = ["method": .string(method)]
        event["request"] = .object(request)
        return event
    }

    @Test func aTextedCodeVerifiesAndTheEmailChannelStaysLocal() async throws {
        let (moto, endpoint) = try startMoto()
        defer { moto.stop() }
        let outbox = BootstrapProcessTests.outboxPath()
        defer { unlink(outbox) }

        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: [
                "CHALLENGE_FLOW": "email-or-sms-code", "CODE_HASH_SECRET": BootstrapProcessTests.secret,
                "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox, "SMS_DELIVERY": "sns", "SNS_ENDPOINT": endpoint,
                "SMS_TEXT_TEMPLATE": "Example code: {code}", "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL",
                "AWS_SECRET_ACCESS_KEY": "local-secret",
            ])

        guard case .response(let created) = try await invoke(emulator, try Self.create(method: "sms-code")) else {
            Issue.record("Create failed: \(bootstrap.standardError())")
            return
        }
        let create = try #require(try JSONValue(parsing: created).objectValue)
        let publicParameters = create["response"]?.objectValue?["publicChallengeParameters"]?.objectValue
        #expect(publicParameters?["channel"] == "sms")
        #expect(publicParameters?["destination"] == "+*******0100")

        let http = try CurlSession()
        /// The text messages moto's SNS has accepted so far.
        func sentTexts() throws -> [JSONValue] {
            let data = try http.perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
            return try JSONValue(parsing: data.body).objectValue?["sns"]?.objectValue?["SMS"]?.arrayValue ?? []
        }
        let texts = try sentTexts()
        #expect(texts.count == 1)
        let text = try #require(texts.first?.objectValue)
        #expect(text["phone_number"]?.stringValue == Self.phone)
        let body = try #require(text["message"]?.stringValue)
        #expect(body.hasPrefix("Example code: "))
        let code = String(body.dropFirst("Example code: ".count))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        #expect(!created.containsSubsequence(Array(code.utf8)), "the code must not be in the response")
        #expect(try OutboxDelivery.messages(at: outbox).isEmpty, "nothing went to the email outbox")
        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))

        guard case .response = try await invoke(emulator, try Self.create(method: "email-code")) else {
            Issue.record("Create by email failed: \(bootstrap.standardError())")
            return
        }
        let emailed = try OutboxDelivery.messages(at: outbox)
        #expect(emailed.count == 1 && emailed.first?.channel == .email && emailed.first?.recipient == "jane.doe@example.com")
        #expect(try sentTexts().count == 1)

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(!log.contains(code))
        #expect(!log.contains("local-secret"))
        #expect(log.contains("code sent by sms to +*******0100"), "\(log)")
    }
}
