import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import LosslessJSON
import Testing

/// `passkey-or-email-code`: a first challenge that only asks how to sign in, then the chosen step.
@Suite("passkey-or-email-code: the user chooses, the chosen step follows")
struct PasskeyChoiceTests {
    static let choosePasskey = ["method": "passkey"]
    static let chooseCode = ["method": "email-code"]

    @Test("the first challenge offers the same methods to everyone and delivers nothing")
    func sameOfferForEveryone() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        #expect(handler.engine.flow.description == "passkey-or-email-code")
        for user in [TestUser.jane, .john, .unknown] {
            let choice = try rig.create(for: user, with: handler)
            #expect(choice.response.publicChallengeParameters == ["challenge": "METHOD_CHOICE", "methods": "passkey,email-code", "attemptsLeft": "3"])
        }
        #expect(rig.delivery.messages.isEmpty)
    }

    @Test("choosing passkey: the passkey challenge follows and signs in")
    func passkeyChosen() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let choice = try rig.create(for: .jane, with: handler)
        #expect(try rig.verify(choice, answer: "passkey", clientMetadata: Self.choosePasskey, with: handler).correct)
        let session = [PasskeyRig.entry(choice, correct: true)]
        let created = try rig.create(for: .jane, session: session, clientMetadata: Self.choosePasskey, with: handler)
        #expect(created.response.publicChallengeParameters?["challenge"] == "PASSKEY")
        #expect(try created.allowedIDs.isEmpty)
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        #expect(try rig.verify(created, answer: answer, with: handler).correct)
        #expect(rig.delivery.messages.isEmpty)
    }

    @Test("choosing email-code: a code is sent and signs in")
    func codeChosen() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        let handler = try rig.handler()
        let choice = try rig.create(for: .jane, with: handler)
        #expect(try rig.verify(choice, answer: " Email-Code ", clientMetadata: Self.chooseCode, with: handler).correct)
        let session = [PasskeyRig.entry(choice, correct: true)]
        let created = try rig.create(for: .jane, session: session, clientMetadata: Self.chooseCode, with: handler)
        #expect(created.response.publicChallengeParameters?["challenge"] == "EMAIL_CODE")
        let code = try #require(rig.delivery.messages.last?.code)
        #expect(try rig.verify(created, answer: code, with: handler).correct)
    }

    @Test("a choice not offered, or not repeated in ClientMetadata, is wrong")
    func badChoices() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        let handler = try rig.handler()
        let choice = try rig.create(for: .jane, with: handler)
        for (answer, metadata) in [
            ("passkey", nil), ("passkey", Self.chooseCode), ("sms-code", ["method": "sms-code"]), ("", ["method": ""]),
        ] as [(String, [String: String]?)] {
            #expect(try rig.verify(choice, answer: answer, clientMetadata: metadata, with: handler).correct == false)
        }
    }

    @Test("a Create after the choice without the method ends the sign-in with an error naming ClientMetadata method")
    func createWithoutMethod() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        let handler = try rig.handler()
        let choice = try rig.create(for: .jane, with: handler)
        let event = rig.createEvent(for: .jane, session: [PasskeyRig.entry(choice, correct: true)])
        let error = #expect(throws: TriggerError.self) { try handler.handle(event) }
        #expect(error?.description.contains("ClientMetadata \"method\"") == true, "\(error?.description ?? "")")
    }

    @Test("after a wrong answer the chosen step stays, whatever the metadata says; another step's seal fails the flow")
    func choiceSticks() throws {
        let rig = PasskeyRig(flow: "passkey-or-email-code")
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let choice = try rig.create(for: .jane, with: handler)
        let chosen = [PasskeyRig.entry(choice, correct: true)]
        let first = try rig.create(for: .jane, session: chosen, clientMetadata: Self.choosePasskey, with: handler)
        #expect(try rig.verify(first, answer: "{}", with: handler).correct == false)
        let afterWrong = chosen + [PasskeyRig.entry(first, correct: false)]
        let second = try rig.create(for: .jane, session: afterWrong, clientMetadata: Self.chooseCode, with: handler)
        #expect(second.response.publicChallengeParameters?["challenge"] == "PASSKEY")
        #expect(second.response.publicChallengeParameters?["attemptsLeft"] == "2")
        #expect(rig.delivery.messages.isEmpty)

        // A code challenge at the same position after a passkey one was not issued by this flow's rules.
        let code = try rig.create(for: .john, session: chosen, clientMetadata: Self.chooseCode, with: handler)
        let mixed = [choice, first, code].enumerated().map { index, create in
            SessionEntry(
                challengeName: .customChallenge, challengeResult: index == 0, challengeMetadata: create.response.challengeMetadata)
        }
        let progress = FlowProgress(session: mixed, flow: handler.engine.flow, policy: handler.engine.policy)
        #expect(progress == .failed(.unrecognizedMetadata(position: 2)))
    }
}
