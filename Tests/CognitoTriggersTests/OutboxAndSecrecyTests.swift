import ChallengeFlows
import CognitoTriggers
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
            configuration: TriggerConfiguration(environment: event.environment(outbox: outbox)), clock: { CorpusEvent.now })

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

    @Test func missingOutboxFileReadsAsEmpty() throws {
        #expect(try OutboxDelivery.messages(at: "/nonexistent-dir/outbox.jsonl").isEmpty)
    }

    @Test func unwritableOutboxIsADeliveryError() throws {
        let event = try #require(try CorpusEvent.all().first { $0.name == "email-code/02-create-code.json" })
        let handler = try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: event.environment(outbox: "/nonexistent-dir/outbox.jsonl")),
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
            let configuration = try TriggerConfiguration(environment: event.environment(outbox: "/dev/null"))
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
