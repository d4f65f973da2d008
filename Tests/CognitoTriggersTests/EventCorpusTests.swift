import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// Runs every file under Events/ through the trigger handler (an API Gateway event through the passkey registration
/// API, as the bootstrap does) and checks it against its expectation.
@Suite struct EventCorpusTests {
    static let corpus = (try? CorpusEvent.all()) ?? []

    @Test func corpusCoversEveryFlowAndTheInvalidEvents() throws {
        let folders = Set(try CorpusEvent.all().map { $0.name.split(separator: "/")[0] })
        #expect(folders == [
            "email-code", "srp-email-code", "captcha", "captcha-email-code", "captcha-step-up", "sms-code", "email-or-sms-code", "magic-link",
            "passkey", "passkey-or-email-code", "passkey-api",
            "variants", "invalid",
        ])
    }

    /// Events that start with a UTF-8 byte-order mark, one per trigger, so that every response path is seen to
    /// leave the mark out.
    @Test func byteOrderMarkVariantsCoverEveryTrigger() throws {
        let marked = try CorpusEvent.all().filter { $0.bytes.starts(with: [0xEF, 0xBB, 0xBF]) }
        let triggers = Set(try marked.compactMap { try JSONValue(parsing: $0.bytes).objectValue?["triggerSource"]?.stringValue })
        #expect(triggers == [
            "DefineAuthChallenge_Authentication", "CreateAuthChallenge_Authentication",
            "VerifyAuthChallengeResponse_Authentication",
        ])
        #expect(marked.allSatisfy { $0.expectation["response"] != nil })
    }

    @Test(arguments: corpus)
    func eventProducesItsExpectedResponse(_ event: CorpusEvent) throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID()).jsonl").path
        let configuration = try TriggerConfiguration(
            environment: event.environment(outbox: outbox, cognito: CorpusEvent.cognito?.endpoint))
        let delivery = RecordingDelivery()
        let handler = try CognitoTriggerHandler(configuration: configuration, delivery: delivery, clock: { CorpusEvent.now })

        if event.isHTTPAPIEvent {
            let api = PasskeyRegistrationAPI(
                settings: configuration.passkeys, store: try configuration.makeStateStore(), recordKey: configuration.recordKey,
                tokens: try configuration.passkeyAPI.makeTokenCheck(), maximumSignInAge: configuration.passkeyAPI.maximumSignInAge,
                clock: { CorpusEvent.now })
            let result = api.handle(try JSONValue(parsing: event.bytes))
            let problems = ExpectationCheck.response(result.response.serialized(), to: event)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
            #expect(result.logDetail == nil, "\(result.logDetail ?? "")")
            return
        }

        if let expectedError = event.expectation["error"]?.objectValue {
            let error = #expect(throws: TriggerError.self) { try handler.handle(event.bytes) }
            #expect(error?.errorType == expectedError["type"]?.stringValue)
            let fragment = try #require(expectedError["messageContains"]?.stringValue)
            #expect(error?.description.contains(fragment) == true, "\(error?.description ?? "")")
            return
        }

        let result = try handler.handle(event.bytes)
        // JSON without a byte-order mark (even when the event had one), the expected response, and everything but
        // the response exactly what arrived: Cognito needs the whole event back.
        #expect(!result.responseBytes.starts(with: [0xEF, 0xBB, 0xBF]), "the response starts with a byte-order mark")
        let problems = ExpectationCheck.response(result.responseBytes, to: event)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")

        if let delivered = event.expectation["delivered"]?.boolValue {
            #expect(delivery.messages.count == (delivered ? 1 : 0))
        }
        #expect(!result.summary.isEmpty)
    }

    /// A code that Create delivers verifies against the parameters Create returned, and nothing else does.
    @Test(arguments: corpus.filter { $0.expectation["delivered"] == true })
    func deliveredCodeVerifies(_ event: CorpusEvent) throws {
        let configuration = try TriggerConfiguration(
            environment: event.environment(outbox: "/dev/null", cognito: CorpusEvent.cognito?.endpoint))
        let delivery = RecordingDelivery()
        let handler = try CognitoTriggerHandler(configuration: configuration, delivery: delivery, clock: { CorpusEvent.now })
        guard case .create(let created) = try handler.handle(event.bytes).event else {
            Issue.record("\(event.name) is not a Create event")
            return
        }
        let code = try #require(delivery.messages.first?.code)
        func verify(_ answer: String) throws -> Bool? {
            guard case .verify(let verified) = try handler.handle(verifyEvent(after: created, answer: answer)).event else { return nil }
            return verified.response.answerCorrect
        }
        #expect(try verify(code) == true)
        // A code with every digit changed; a sign-in link's token with its last character changed.
        let wrong = code.allSatisfy(\.isASCII) && code.allSatisfy(\.isNumber)
            ? String(code.map { $0 == "9" ? "0" : Character(String(Int(String($0))! + 1)) })
            : String(code.dropLast()) + (code.last == "A" ? "B" : "A")
        #expect(try verify(wrong) == false)
    }

    /// The files are kept in the layout Cognito-style JSON tools write, so decoding and re-encoding reproduces
    /// each one byte for byte.
    @Test(arguments: corpus.filter { !$0.name.hasPrefix("invalid/") && !$0.name.contains("byte-order-mark") && !$0.isHTTPAPIEvent })
    func eventRoundTripsByteForByte(_ event: CorpusEvent) throws {
        let decoded = try AuthChallengeEvent(parsing: event.bytes)
        guard decoded.json.objectValue?["response"] != nil,
              try JSONValue(parsing: event.bytes).objectValue?["response"] != nil
        else { return }
        #expect(decoded.json.serialized(.pretty) + [0x0A] == event.bytes)
    }
}

