import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

@Suite struct OutboxAndSecrecyTests {
    /// A sign-in through the real outbox file: the code lands in the file and verifies.
    @Test func codeTravelsThroughTheOutboxFileAndVerifies() throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let event = try #require(try CorpusEvent.all().first { $0.name == "email-code/02-create-code.json" })
        let handler = try CognitoTriggerHandler(
            configuration: TriggerConfiguration(
                environment: event.environment(outbox: outbox, cognito: CorpusEvent.cognito?.endpoint)), clock: { CorpusEvent.now })

        let created = try handler.handle(event.bytes)
        let messages = try OutboxDelivery.messages(at: outbox)
        #expect(messages.count == 1)
        let message = try #require(messages.first)
        #expect(message.recipient == "jane.doe@example.com")
        #expect(message.userName == "jane")
        #expect(message.code.count == 6 && message.code.allSatisfy(\.isNumber))
        #expect(message.sentAt == CorpusEvent.now)

        let attributes = try FileManager.default.attributesOfItem(atPath: outbox)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        // Nothing Cognito or a log sees holds the code: not the response event, not the summary.
        let response = String(decoding: created.responseBytes, as: UTF8.self)
        #expect(!response.contains(message.code))
        #expect(!created.summary.contains(message.code))
        #expect(!response.contains(CorpusEvent.secret))
    }

    /// Each message is one line: the compact JSON object of its members in a fixed order, escaped as the JSON writer
    /// escapes any value (a line break in a value cannot start a line of its own).
    @Test func eachMessageIsOneLineOfCompactJSON() throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let delivery = OutboxDelivery(path: outbox, clock: { 1_763_800_000 })
        let link = CodeMessage(
            recipient: "o'brien \"q\"@example.com", userName: "jane\nsecond line", code: "tok\\en",
            link: "https://example.com/sign-in?t=a&b=\u{2028}ü", validForSeconds: 900)
        let code = CodeMessage(channel: .sms, recipient: "+15555550100", userName: "jane", code: "123456", validForSeconds: 300)
        try delivery.deliver(link)
        try delivery.deliver(code)

        func line(_ message: CodeMessage) -> String {
            var members: [JSONObject.Member] = [
                ("channel", .string(message.channel.rawValue)), ("to", .string(message.recipient)),
                ("userName", .string(message.userName)), ("code", .string(message.code)),
                ("validForSeconds", .number(JSONNumber(message.validForSeconds))), ("sentAt", .number(JSONNumber(1_763_800_000))),
            ]
            if let link = message.link { members.append(("link", .string(link))) }
            return String(decoding: JSONValue.object(JSONObject(distinctMembers: members)).serialized(), as: UTF8.self) + "\n"
        }
        #expect(try String(contentsOfFile: outbox, encoding: .utf8) == line(link) + line(code))
        let read = try OutboxDelivery.messages(at: outbox)
        #expect(read.map(\.code) == [link.code, code.code])
        #expect(read.map(\.link) == [link.link, nil])
        #expect(read.map(\.userName) == [link.userName, code.userName])
    }

    @Test func missingOutboxFileReadsAsEmpty() throws {
        #expect(try OutboxDelivery.messages(at: "/nonexistent-dir/outbox.jsonl").isEmpty)
    }

    @Test func unwritableOutboxIsADeliveryError() throws {
        let event = try #require(try CorpusEvent.all().first { $0.name == "email-code/02-create-code.json" })
        let handler = try CognitoTriggerHandler(
            configuration: TriggerConfiguration(
                environment: event.environment(outbox: "/nonexistent-dir/outbox.jsonl", cognito: CorpusEvent.cognito?.endpoint)),
            clock: { CorpusEvent.now })
        let error = #expect(throws: TriggerError.self) { try handler.handle(event.bytes) }
        #expect(error?.errorType == "Function.DeliveryFailed")
        #expect(error?.description.contains("/nonexistent-dir/outbox.jsonl") == true)
    }

    /// No summary or error of any corpus event carries a code, an answer, a hash or the secret.
    @Test func summariesAndErrorsNeverCarrySecrets() throws {
        let delivery = RecordingDelivery()
        var secrets = [CorpusEvent.secret, "482913", "w7xq4"]
        var lines: [String] = []
        for event in try CorpusEvent.all() {
            let configuration = try TriggerConfiguration(
                environment: event.environment(outbox: "/dev/null", cognito: CorpusEvent.cognito?.endpoint))
            let handler = try CognitoTriggerHandler(configuration: configuration, delivery: delivery, clock: { CorpusEvent.now })
            do {
                let result = try handler.handle(event.bytes)
                lines.append(result.summary)
                if case .create(let created) = result.event {
                    secrets.append(try #require(created.response.privateChallengeParameters?["answerHash"]))
                }
            } catch {
                lines.append(String(describing: error))
            }
        }
        secrets += delivery.messages.map(\.code)
        for line in lines {
            for secret in secrets {
                #expect(!line.contains(secret), "\(line)")
            }
        }
    }
}
