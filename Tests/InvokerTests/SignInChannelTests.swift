import ChallengeFlows
import Foundation
import Invoker
import LosslessJSON
import Platform
import Testing

/// Scripted sign-ins with the text-message and sign-in-link steps, through the real triggers in this process; the
/// answers come from the local outbox (`@outbox`).
@Suite("Sign-in by text message and sign-in link, in-process")
struct SignInChannelTests {
    @Test("sms-code: the code texted to jane's number, read from the outbox, signs in")
    func smsCode() async throws {
        let run = try await SignInTests.signIn(flow: "sms-code", answers: [ScriptedAnswers.deliveredCode])
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        let text = try #require(run.outbox.last, "\(run.transcript)")
        #expect(text["channel"] == "sms")
        #expect(text["to"] == .string(LocalDefaults.phoneNumber))
        #expect(run.transcript.contains("📱 texted to "), "\(run.transcript)")
        #expect(!run.transcript.contains(LocalDefaults.phoneNumber), "the number is masked in the transcript")
    }

    @Test("email-or-sms-code: the choice sms-code, answered and sent as ClientMetadata method, texts the code that signs in")
    func channelChoiceSMS() async throws {
        let run = try await SignInTests.signIn(flow: "email-or-sms-code", answers: ["sms-code", ScriptedAnswers.deliveredCode])
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        #expect(result.session.map(\.challengeResult) == [true, true])
        #expect(run.outbox.count == 1)
        #expect(run.outbox.first?["channel"] == "sms")
        #expect(run.transcript.contains("choose a method: email-code, sms-code"), "\(run.transcript)")
        #expect(run.transcript.contains("ANSWER=sms-code  ClientMetadata={method=sms-code}"), "\(run.transcript)")
        #expect(run.transcript.contains("📱 texted to +*******0100: "), "\(run.transcript)")
    }

    @Test("ClientMetadata reaches Verify and the Create after an answer (a code or the password), never Define or a Create after InitiateAuth",
          arguments: [
              ("email-code", ["000000", ScriptedAnswers.deliveredCode], "D- C- V+ D- C+ V+ D-"),
              ("srp-email-code", [ScriptedAnswers.deliveredCode], "D- D- C+ V+ D-"),
          ])
    func clientMetadataAsCognitoPassesIt(flow: String, answers: [String], expected: String) async throws {
        let recorder = EventRecorder()
        let run = try await SignInTests.signIn(flow: flow, answers: answers, clientMetadata: ["app": "web"]) { configuration in
            RecordingTransport(inner: try InProcessTransport(configuration: configuration), recorder: recorder)
        }
        #expect(try run.result.get().outcome == .signedIn, "\(run.transcript)")
        // D, C, V: Define, Create, Verify; + with the app's ClientMetadata, - without any.
        let seen = recorder.events.map { event in
            "\(event.trigger.prefix(1))\(event.clientMetadata == ["app": "web"] ? "+" : event.clientMetadata == nil ? "-" : "?")"
        }
        #expect(seen.joined(separator: " ") == expected, "\(run.transcript)")
    }

    @Test("email-or-sms-code: the choice email-code emails the code that signs in")
    func channelChoiceEmail() async throws {
        let run = try await SignInTests.signIn(flow: "email-or-sms-code", answers: ["email-code", ScriptedAnswers.deliveredCode])
        #expect(try run.result.get().outcome == .signedIn, "\(run.transcript)")
        #expect(run.outbox.first?["channel"] == "email")
        #expect(run.outbox.first?["to"] == .string(LocalDefaults.email))
        #expect(run.transcript.contains("✉ delivered to j***@e***.com: "), "\(run.transcript)")
    }

    @Test("magic-link: the link's token, read from the outbox, signs in")
    func magicLink() async throws {
        let run = try await SignInTests.signIn(flow: "magic-link", answers: [ScriptedAnswers.deliveredCode])
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        let email = try #require(run.outbox.last, "\(run.transcript)")
        #expect(email["channel"] == "email")
        let token = try #require(email["code"]?.stringValue)
        let link = try #require(email["link"]?.stringValue)
        #expect(link.hasPrefix("http://localhost:3000/sign-in#token="))
        #expect(run.transcript.contains("✉ sign-in link delivered to j***@e***.com: \(link)"), "\(run.transcript)")
        #expect(run.transcript.contains("link token › \(token)"))
    }

    @Test("magic-link: a wrong token, then the link already sent, signs in", arguments: ["magic-link", "sms-code"])
    func wrongThenRight(flow: String) async throws {
        let run = try await SignInTests.signIn(flow: flow, answers: ["not-the-token", ScriptedAnswers.deliveredCode])
        let result = try run.result.get()
        #expect(result.outcome == .signedIn, "\(run.transcript)")
        #expect(result.session.map(\.challengeResult) == [false, true])
        #expect(run.outbox.count == 1, "nothing new is sent after a wrong answer")
        #expect(run.transcript.contains("sent earlier is still valid"), "\(run.transcript)")
    }

    @Test("a user without a phone number gets a decoy: nothing texted, and no answer passes")
    func userWithoutPhone() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let table = try LocalUserTable.load(path: scratch.write("users.json", """
            [{"userName": "sam", "password": "Correct-Horse-9", "email": "sam@example.com"},
             {"userName": "kim", "password": "Correct-Horse-9", "email": "kim@example.com", "phoneNumber": "+15555550123"}]
            """))
        #expect(table.user(named: "sam")?.phoneNumber == nil)
        #expect(table.user(named: "kim")?.phoneNumber == "+15555550123")
        #expect(table.user(named: "kim")?.identity.userAttributes["phone_number_verified"] == "true")

        let configuration = try LocalConfiguration(processEnvironment: [
            "CHALLENGE_FLOW": "sms-code", "OUTBOX_PATH": scratch.path("outbox.jsonl"),
        ])
        let transport = try InProcessTransport(configuration: configuration)
        let captured = CapturedConsole()
        let result = try await SignInDriver(
            transport: transport, settings: SignInSettings(configuration: configuration, userName: "sam", users: table),
            answers: ScriptedAnswers(["@outbox", "123456", "654321"]), console: captured.console
        ).run()
        #expect(result.outcome != .signedIn, "\(captured.output)")
        #expect(captured.output.contains("📱 nothing delivered to the local outbox"), "\(captured.output)")
        // The outbox is opened (created) when the delivery is made; nothing was written to it.
        #expect(FileManager.default.contents(atPath: scratch.path("outbox.jsonl"))?.isEmpty ?? true)
    }

    @Test("a user table's phoneNumber must be a string")
    func invalidPhoneNumber() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try scratch.write("users.json", #"[{"userName": "sam", "password": "p", "email": "s@example.com", "phoneNumber": 15555550100}]"#)
        #expect(throws: InvokerError.self) { try LocalUserTable.load(path: path) }
    }
}

@Suite("Events with phone numbers and ClientMetadata")
struct EventClientMetadataTests {
    static let jane = LocalUserTable.embedded.user(named: LocalDefaults.userName)!.identity

    @Test("jane's attributes carry her email and verified phone number")
    func janeAttributes() throws {
        let event = EventFactory.define(Self.jane, session: [])
        let attributes = try #require(event.objectValue?["request"]?.objectValue?["userAttributes"]?.objectValue)
        #expect(attributes["email"] == .string(LocalDefaults.email))
        #expect(attributes["email_verified"] == "true")
        #expect(attributes["phone_number"] == .string(LocalDefaults.phoneNumber))
        #expect(attributes["phone_number_verified"] == "true")
        #expect(attributes.keys.first == "sub")
        #expect(event.objectValue?["request"]?.objectValue?["clientMetadata"] == nil, "absent unless given")
    }

    @Test("generate-event puts clientMetadata in the request of each trigger, with the method chosen from the choice on",
          arguments: EventGenerator.Trigger.allCases)
    func generated(trigger: EventGenerator.Trigger) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let configuration = try LocalConfiguration(processEnvironment: [
            "CHALLENGE_FLOW": "email-or-sms-code", "OUTBOX_PATH": scratch.path("outbox.jsonl"),
        ])
        let generator = try EventGenerator(
            configuration: configuration, identity: Self.jane, clientMetadata: ["app": "web"], method: "sms-code")
        let generated = try await generator.generate(trigger, session: generator.tokens(for: .custom(2), wrongAnswers: 0))
        let request = generated.event.objectValue?["request"]?.objectValue
        #expect(request?["clientMetadata"] == (trigger == .define ? ["app": "web"] : ["app": "web", "method": "sms-code"]))
        let invocation = try await InProcessTransport(configuration: configuration).invoke(generated.event.serialized())
        guard case .response(let bytes) = invocation.outcome else {
            Issue.record("\(trigger) failed: \(invocation.outcome)")
            return
        }
        switch try AuthChallengeEvent(parsing: bytes) {
        case .create(let create):
            #expect(create.response.publicChallengeParameters?["channel"] == "sms", "the code goes by text message")
        case .verify:
            #expect(invocation.summary == "answer correct", "the right answer is the texted code")
        case .define:
            #expect(invocation.summary == "next challenge CUSTOM_CHALLENGE")
        }
    }
}

/// The events a ``RecordingTransport`` passed on: each trigger source and its request's `clientMetadata`.
final class EventRecorder: Sendable {
    private let recorded = PosixLock<[(trigger: String, clientMetadata: JSONValue?)]>([])

    var events: [(trigger: String, clientMetadata: JSONValue?)] { recorded.withLock { $0 } }

    func record(_ event: [UInt8]) {
        let object = try? JSONValue(parsing: event).objectValue
        let entry = (object?["triggerSource"]?.stringValue ?? "?", object?["request"]?.objectValue?["clientMetadata"])
        recorded.withLock { $0.append(entry) }
    }
}

/// Another transport, with every event it is given recorded first.
final class RecordingTransport: TriggerTransport {
    let label = "recording"
    private let inner: any TriggerTransport
    private let recorder: EventRecorder

    init(inner: any TriggerTransport, recorder: EventRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    func invoke(_ event: [UInt8]) async throws(InvokerError) -> Invocation {
        recorder.record(event)
        return try await inner.invoke(event)
    }

    func shutdown() async {
        await inner.shutdown()
    }
}
