import ChallengeCrypto
import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import Platform
import ServiceClients
import Synchronization
import TestSupport
import Testing

/// The `magic-link` and `sms-code` steps, and the `email-or-sms-code` flow (`email-code|sms-code`), through the trigger handler, with events built from
/// the corpus, a clock the test moves, and the in-memory state store where a test says so.
@Suite("Messaging steps through the handler")
struct MessagingStepsTests {
    static let linkTemplate = "https://app.example.com/sign-in#token={token}"
    static let phone = "+15555550100"

    let clock = TestClock()
    let delivery = RecordingDelivery()

    func handler(flow: String, _ extra: [String: String] = [:], store: (any StateStore)? = nil) throws -> CognitoTriggerHandler {
        var environment = [
            "CHALLENGE_FLOW": flow, "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox",
            "MAGIC_LINK_URL": Self.linkTemplate,
        ].merging(extra) { $1 }
        if store != nil { environment["STATE_STORE"] = "memory" }
        return try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: environment), delivery: delivery, stateStore: store,
            clock: clock.read)
    }

    /// The corpus's first Create for jane, with other attributes, user name or client metadata when given.
    static func createEvent(
        userName: String = "jane", attributes: [String: String]? = nil, clientMetadata: [String: String]? = nil
    ) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-code/02-create-code.json")))
        var event = try #require(try JSONValue(parsing: bytes).objectValue)
        var request = try #require(event["request"]?.objectValue)
        event["userName"] = .string(userName)
        if let attributes { request["userAttributes"] = strings(attributes) }
        if let clientMetadata { request["clientMetadata"] = strings(clientMetadata) }
        event["request"] = .object(request)
        return JSONValue.object(event).serialized()
    }

    static func strings(_ map: [String: String]) -> JSONValue {
        .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }

    func create(_ handler: CognitoTriggerHandler, _ bytes: [UInt8]) throws -> (CreateAuthChallengeEvent, TriggerResult) {
        let result = try handler.handle(bytes)
        guard case .create(let event) = result.event else { throw CorpusError(message: "not a Create") }
        return (event, result)
    }

    func verify(_ handler: CognitoTriggerHandler, _ create: CreateAuthChallengeEvent, answer: String) throws -> Bool {
        guard case .verify(let verified) = try handler.handle(verifyEvent(after: create, answer: answer)).event else { return false }
        return verified.response.answerCorrect ?? false
    }

    // MARK: magic-link

    @Test("magic-link: the emailed link carries a token that signs in; neither the token nor the link is in the response")
    func magicLinkRightToken() throws {
        let handler = try handler(flow: "magic-link")
        let (created, result) = try create(handler, try Self.createEvent())
        let message = try #require(delivery.messages.last)
        #expect(message.channel == .email && message.recipient == "jane.doe@example.com")
        #expect(message.link == "https://app.example.com/sign-in#token=\(message.code)")
        #expect(message.code.count > 40, "a token, not a short code")
        #expect(created.response.publicChallengeParameters?["challenge"] == "MAGIC_LINK")
        #expect(created.response.publicChallengeParameters?["destination"] == "j***@e***.com")
        let response = String(decoding: result.responseBytes, as: UTF8.self)
        #expect(!response.contains(message.code))
        #expect(result.summary.contains("sign-in link sent by email to j***@e***.com"), "\(result.summary)")
        #expect(try verify(handler, created, answer: message.code))
    }

    @Test("magic-link: a token after its expiry, tampered with, or issued to another user is refused")
    func magicLinkRefusals() throws {
        let handler = try handler(flow: "magic-link")
        let (jane, _) = try create(handler, try Self.createEvent())
        let janeToken = try #require(delivery.messages.last?.code)
        _ = try create(handler, try Self.createEvent(userName: "bob", attributes: ["email": "bob@example.com", "email_verified": "true"]))
        let bobToken = try #require(delivery.messages.last?.code)
        #expect(bobToken != janeToken)

        #expect(try !verify(handler, jane, answer: bobToken), "another user's token")
        var tampered = Array(janeToken)
        tampered[10] = tampered[10] == "A" ? "B" : "A"
        #expect(try !verify(handler, jane, answer: String(tampered)), "a tampered token")
        #expect(try !verify(handler, jane, answer: "nope"), "not a token")
        // The token's signature checks out, but it was issued for another key.
        let (forged, _) = try MagicLinkToken.issue(
            key: Array("not the deployment's key, 32 bytes...".utf8), keyID: "attacker", userPoolId: "us-east-1_EXAMPLE",
            userName: "jane", stepIndex: 0, expiresAt: CorpusEvent.now + 100, random: SystemRandom())
        #expect(try !verify(handler, jane, answer: forged), "a token made with another key")

        clock.advance(181)
        #expect(try !verify(handler, jane, answer: janeToken), "an expired token")
    }

    @Test("magic-link with the memory store: a used link does not sign in again, and a new sign-in gets a new link")
    func magicLinkReplayedWithStore() throws {
        let store = MemoryStateStore()
        let handler = try handler(flow: "magic-link", store: store)
        let (first, _) = try create(handler, try Self.createEvent())
        let token = try #require(delivery.messages.last?.code)
        #expect(try verify(handler, first, answer: token))
        #expect(try !verify(handler, first, answer: token), "the same answer replayed into the same challenge")

        clock.advance(5)
        let (second, _) = try create(handler, try Self.createEvent())
        #expect(delivery.messages.count == 2, "a used link is not reused: a new one is sent")
        #expect(try !verify(handler, second, answer: token), "the used token in a new sign-in")
        #expect(try verify(handler, second, answer: try #require(delivery.messages.last?.code)))
    }

    @Test("magic-link with the memory store: a sign-in started again (another device) finishes with the link already sent")
    func magicLinkOpenedInAnotherSignIn() throws {
        let store = MemoryStateStore()
        let handler = try handler(flow: "magic-link", store: store)
        _ = try create(handler, try Self.createEvent())
        let token = try #require(delivery.messages.last?.code)
        clock.advance(20)
        let (again, result) = try create(handler, try Self.createEvent())
        #expect(delivery.messages.count == 1, "nothing sent again")
        #expect(result.summary.contains("nothing sent again"), "\(result.summary)")
        #expect(try verify(handler, again, answer: token))
    }

    @Test("magic-link without MAGIC_LINK_URL is a start-up error naming the variable; a plain-http link is refused")
    func magicLinkConfiguration() throws {
        let base = ["CHALLENGE_FLOW": "magic-link", "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox"]
        #expect {
            try CognitoTriggerHandler(configuration: TriggerConfiguration(environment: base))
        } throws: { "\($0)".hasPrefix("MAGIC_LINK_URL is not set") }
        #expect {
            try TriggerConfiguration(environment: base.merging(["MAGIC_LINK_URL": "http://app.example.com/?t={token}"]) { $1 })
        } throws: { "\($0)".contains("plain http") }
    }

    // MARK: sms-code

    @Test("sms-code: the code is texted to the verified phone_number and signs in; the destination is masked")
    func smsCodeToVerifiedPhone() throws {
        let handler = try handler(flow: "sms-code")
        let attributes = ["phone_number": Self.phone, "phone_number_verified": "true"]
        let (created, result) = try create(handler, try Self.createEvent(attributes: attributes))
        let message = try #require(delivery.messages.last)
        #expect(message.channel == .sms && message.recipient == Self.phone && message.link == nil)
        #expect(created.response.publicChallengeParameters?["destination"] == "+*******0100")
        #expect(created.response.publicChallengeParameters?["channel"] == "sms")
        #expect(result.summary.contains("code sent by sms to +*******0100"), "\(result.summary)")
        #expect(try verify(handler, created, answer: message.code))
    }

    @Test("sms-code: an unverified, missing or malformed phone number is answered as an unknown user", arguments: [
        ["phone_number": phone, "phone_number_verified": "false"], ["email": "jane.doe@example.com"],
        ["phone_number": "0155 555 0100", "phone_number_verified": "true"],
    ])
    func smsCodeWithoutUsablePhone(attributes: [String: String]) throws {
        let handler = try handler(flow: "sms-code")
        let (created, result) = try create(handler, try Self.createEvent(attributes: attributes))
        #expect(delivery.messages.isEmpty)
        let destination = try #require(created.response.publicChallengeParameters?["destination"])
        #expect(destination.hasPrefix("+*******") && destination.count == 12, "\(destination)")
        #expect(result.warning?.contains("phone_number") == true, "\(String(describing: result.warning))")
        #expect(try !verify(handler, created, answer: "000000"))
    }

    @Test("an unknown user's decoy phone destination is stable per user name and shaped like a real mask")
    func smsDecoyForUnknownUser() throws {
        let handler = try handler(flow: "sms-code")
        func destination(_ name: String) throws -> String? {
            var event = try #require(try JSONValue(parsing: try Self.createEvent(userName: name)).objectValue)
            var request = try #require(event["request"]?.objectValue)
            request["userNotFound"] = true
            request["userAttributes"] = [:]
            event["request"] = .object(request)
            return try create(handler, JSONValue.object(event).serialized()).0.response.publicChallengeParameters?["destination"]
        }
        let first = try destination("nobody")
        #expect(first == (try destination("nobody")))
        #expect(first?.hasPrefix("+*******") == true && first?.count == 12)
        #expect(delivery.messages.isEmpty)
    }

    // MARK: email-or-sms-code

    /// The corpus's Create after jane chose `method` at email-or-sms-code's choose-method challenge (nil: no
    /// `ClientMetadata`), with other attributes when given.
    static func createAfterChoice(method: String?, attributes: [String: String]? = nil) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-or-sms-code/07-create-code-by-sms.json")))
        var event = try #require(try JSONValue(parsing: bytes).objectValue)
        var request = try #require(event["request"]?.objectValue)
        if let attributes { request["userAttributes"] = strings(attributes) }
        request["clientMetadata"] = method.map { strings([MethodChoiceStep.metadataKey: $0]) }
        event["request"] = .object(request)
        return JSONValue.object(event).serialized()
    }

    @Test("email-or-sms-code: the first challenge only asks; choosing sms-code texts the code, email-code emails it")
    func channelChoice() throws {
        let handler = try handler(flow: "email-or-sms-code")
        #expect(handler.engine.flow.description == "email-or-sms-code")
        let (choice, _) = try create(handler, try Self.createEvent())
        #expect(choice.response.publicChallengeParameters == ["challenge": "METHOD_CHOICE", "methods": "email-code,sms-code", "attemptsLeft": "3"])
        #expect(delivery.messages.isEmpty)

        let (bySMS, _) = try create(handler, try Self.createAfterChoice(method: "sms-code"))
        #expect(delivery.messages.map(\.channel) == [.sms])
        #expect(bySMS.response.publicChallengeParameters?["challenge"] == "SMS_CODE")
        #expect(bySMS.response.publicChallengeParameters?["channel"] == "sms")
        #expect(try verify(handler, bySMS, answer: try #require(delivery.messages.last?.code)))

        let (byEmail, _) = try create(handler, try Self.createAfterChoice(method: "Email-Code"))
        #expect(delivery.messages.map(\.channel) == [.sms, .email])
        #expect(byEmail.response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")

        // The channel names of the old ClientMetadata "channel" choose nothing: the Create cannot guess.
        for method in [nil, "sms", "email"] as [String?] {
            #expect(throws: (any Error).self) { try handler.handle(try Self.createAfterChoice(method: method)) }
        }
        #expect(delivery.messages.count == 2)
    }

    @Test("email-or-sms-code: choosing a channel the user cannot receive on sends nothing, and even a guessed code fails")
    func channelChoiceWithoutPhone() throws {
        let handler = try handler(flow: "email-or-sms-code")
        let attributes = ["email": "jane.doe@example.com", "email_verified": "true"]
        let (created, result) = try create(handler, try Self.createAfterChoice(method: "sms-code", attributes: attributes))
        #expect(delivery.messages.isEmpty)
        #expect(created.response.publicChallengeParameters?["destination"]?.hasPrefix("+*******") == true)
        #expect(result.warning != nil)
        #expect(try !verify(handler, created, answer: "000000"))
    }

    @Test("a flow that texts codes with CODE_DELIVERY=ses needs the SNS settings; SMS_DELIVERY takes sns or outbox only")
    func smsDeliveryConfiguration() throws {
        let base = [
            "CHALLENGE_FLOW": "sms-code", "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox",
            "SMS_DELIVERY": "carrier-pigeon",
        ]
        #expect { try TriggerConfiguration(environment: base) } throws: { "\($0)".contains("SMS_DELIVERY=\"carrier-pigeon\"") }
        let outbox = try TriggerConfiguration(environment: base.merging(["SMS_DELIVERY": "outbox", "OUTBOX_PATH": "/tmp/x"]) { $1 })
        #expect(outbox.smsDelivery == .outbox(path: "/tmp/x"))
        let emailOnly = try TriggerConfiguration(environment: base.merging(["CHALLENGE_FLOW": "email-code"]) { $1 })
        #expect(emailOnly.smsDelivery == nil, "SMS_DELIVERY is not read for a flow that sends no text message")
    }
}
