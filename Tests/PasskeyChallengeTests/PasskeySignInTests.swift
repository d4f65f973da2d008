import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import Platform
import TestSupport
import Testing

/// The passkey step through the real trigger handler, a memory store and a software authenticator, with the real
/// WebAuthn verifier.
@Suite("Passkey sign-in (handler, memory store, software authenticator)")
struct PasskeySignInTests {
    @Test("a registered passkey signs in; counter, backup state and last use are stored")
    func signsIn() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        let credential = try rig.register(.jane, on: &authenticator)
        // Fields the step does not know of, a number among them, stay as the registration side wrote them.
        var registered = try #require(try rig.record(of: .jane))
        registered.fields["registeredAt"] = .number(PasskeyRig.now)
        registered.fields["note"] = .string("kept")
        #expect(rig.store.write(try rig.recordKey(for: .jane), registered, expectedVersion: registered.version, now: PasskeyRig.now).succeeded)
        let handler = try rig.handler()
        let created = try rig.create(for: .jane, with: handler)
        #expect(try created.allowedIDs.isEmpty)
        rig.advance(7)
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        let verdict = try rig.verify(created, answer: answer, with: handler)
        #expect(verdict.correct, "\(verdict.summary)")
        #expect(verdict.warning == nil)
        let stored = try #require(try rig.account(of: .jane)?.credentials.first)
        #expect(stored.signCount == 1)
        #expect(stored.lastUsedAt == PasskeyRig.now + 7)
        #expect(stored.publicKey == credential.publicKey)
        #expect(stored.name == "Test passkey")
        let record = try #require(try rig.record(of: .jane))
        #expect(record.fields["registeredAt"] == .number(PasskeyRig.now))
        #expect(record.fields["note"] == .string("kept"))
        #expect(record.expiresAt == registered.expiresAt)
        #expect(record.version == registered.version + 2, "one write here, one by the sign-in")
    }

    /// Anyone who knows the user name can send answers: none of them may stop the user's passkey. Garbage, assertions
    /// of another key and replays count against no budget, and a valid assertion is always judged.
    @Test("a valid assertion signs in after 30 garbage answers from others, with the failure budgets and step-ups on")
    func garbageAnswersDoNotLockThePasskeyOut() throws {
        let rig = PasskeyRig(extra: [
            "MAX_FAILURES_PER_WINDOW": "5", "POOL_MAX_FAILURES_PER_WINDOW": "10", "CAPTCHA_STEP_UP_AFTER_FAILURES": "3",
            "FAILURE_DELAY_BASE_SECONDS": "2", "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
        ])
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        var stranger = try SoftwareAuthenticator()
        try rig.register(.john, on: &stranger)
        let handler = try rig.handler()
        for attempt in 0..<30 {
            let created = try rig.create(for: .jane, with: handler)
            #expect(created.response.publicChallengeParameters?["challenge"] == "PASSKEY", "no CAPTCHA put in front")
            var options = try created.optionsObject
            options["allowCredentials"] = []
            let garbage = switch attempt % 3 {
            case 0: "not an assertion \(attempt)"
            case 1: try stranger.authenticate(optionsJSON: JSONValue.object(options).text(), origin: PasskeyRig.origin)
            default: #"{"id": "AAAA", "response": {"clientDataJSON": "e30"}}"#
            }
            #expect(try rig.verify(created, answer: garbage, with: handler).correct == false)
        }
        let created = try rig.create(for: .jane, with: handler)
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        let verdict = try rig.verify(created, answer: answer, with: handler)
        #expect(verdict.correct, "\(verdict.summary)")
    }

    @Test("a PASSKEY_TIMEOUT_MS shorter than the challenge's life is the options' timeout")
    func shortTimeout() throws {
        let rig = PasskeyRig(extra: ["PASSKEY_TIMEOUT_MS": "60000"])
        let created = try rig.create(for: .jane, with: try rig.handler())
        #expect(try created.optionsObject["timeout"] == .number(JSONNumber(60_000)))
    }

    @Test("the options are PublicKeyCredentialRequestOptionsJSON itself, naming no credential")
    func optionsShape() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator, transports: ["hybrid", "internal"])
        try rig.register(.jane, on: &authenticator, transports: ["nfc", "usb"])
        let created = try rig.create(for: .jane, with: try rig.handler())
        let options = try created.optionsObject
        #expect(options.keys == ["challenge", "timeout", "rpId", "allowCredentials", "userVerification"])
        let challenge = try #require(options["challenge"]?.stringValue.flatMap(Base64URL.decode))
        #expect(challenge.count == 32)
        #expect(options["rpId"]?.stringValue == "example.com")
        #expect(options["userVerification"]?.stringValue == "required")
        // The seal expires after CODE_TTL_SECONDS (180 s), before PASSKEY_TIMEOUT_MS (300 s): the browser gives up then.
        #expect(options["timeout"] == .number(JSONNumber(180_000)))
        #expect(options["allowCredentials"] == [])
        #expect(created.response.publicChallengeParameters?["challenge"] == "PASSKEY")
        #expect(created.response.publicChallengeParameters?.keys.sorted() == ["attemptsLeft", "challenge", "options"])
        // The challenge is sealed, never shown in the private parameters or the metadata.
        let privateParameters = try #require(created.response.privateChallengeParameters)
        #expect(!privateParameters.values.contains { $0.contains(Base64URL.encode(challenge)) })
        #expect(created.response.challengeMetadata?.contains(Base64URL.encode(challenge)) == false)
    }

    @Test("an assertion over another challenge is refused")
    func wrongChallenge() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let earlier = try rig.create(for: .jane, with: handler)
        let current = try rig.create(for: .jane, with: handler)
        let answer = try authenticator.authenticate(optionsJSON: try earlier.options, origin: PasskeyRig.origin)
        #expect(try rig.verify(current, answer: answer, with: handler).correct == false)
        #expect(try rig.account(of: .jane)?.credentials.first?.signCount == 0, "nothing is stored for a refused answer")
        #expect(try rig.verify(earlier, answer: answer, with: handler).correct, "the same assertion, to its own challenge")
    }

    @Test("a replayed assertion is refused, whether or not the authenticator keeps a counter", arguments: SoftwareAuthenticator.CounterPolicy.allCases)
    func replayedAssertion(policy: SoftwareAuthenticator.CounterPolicy) throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator(counterPolicy: policy)
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let created = try rig.create(for: .jane, with: handler)
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        #expect(try rig.verify(created, answer: answer, with: handler).correct)
        let replay = try rig.verify(created, answer: answer, with: handler)
        #expect(replay.correct == false)
        #expect(replay.summary.contains("answered already"), "\(replay.summary)")
        // Into a later sign-in, the assertion signs the wrong challenge.
        let later = try rig.create(for: .jane, with: handler)
        #expect(try rig.verify(later, answer: answer, with: handler).correct == false)
    }

    @Test("a counter that goes back is refused and reported as a possibly cloned authenticator")
    func counterRegression() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let clone = authenticator
        let handler = try rig.handler()
        for _ in 0..<3 {
            let created = try rig.create(for: .jane, with: handler)
            let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
            #expect(try rig.verify(created, answer: answer, with: handler).correct)
        }
        #expect(try rig.account(of: .jane)?.credentials.first?.signCount == 3)
        var cloned = clone
        let created = try rig.create(for: .jane, with: handler)
        let answer = try cloned.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        let verdict = try rig.verify(created, answer: answer, with: handler)
        #expect(verdict.correct == false)
        let warning = try #require(verdict.warning)
        #expect(warning.contains("from 3 to 1") && warning.contains("cloned authenticator"), "\(warning)")
        #expect(!warning.contains(Base64URL.encode(try #require(try rig.account(of: .jane)?.credentials.first?.publicKey))))
        #expect(try rig.account(of: .jane)?.credentials.first?.signCount == 3)
    }

    @Test("another user's passkey does not sign this user in")
    func anotherUsersCredential() throws {
        let rig = PasskeyRig()
        var janes = try SoftwareAuthenticator()
        var johns = try SoftwareAuthenticator()
        try rig.register(.jane, on: &janes)
        try rig.register(.john, on: &johns)
        let handler = try rig.handler()
        let created = try rig.create(for: .jane, with: handler)
        // John's authenticator answers Jane's challenge as if no credentials were listed.
        var options = try created.optionsObject
        options["allowCredentials"] = []
        let answer = try johns.authenticate(optionsJSON: JSONValue.object(options).text(), origin: PasskeyRig.origin)
        #expect(try rig.verify(created, answer: answer, with: handler).correct == false)
        #expect(try rig.account(of: .john)?.credentials.first?.signCount == 0)
    }

    @Test("origins not allowed, and answers that are not assertions, are refused")
    func otherRefusals() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let created = try rig.create(for: .jane, with: handler)
        let phished = try authenticator.authenticate(optionsJSON: try created.options, origin: "https://example.com.evil.test")
        let verdict = try rig.verify(created, answer: phished, with: handler)
        #expect(verdict.correct == false)
        #expect(verdict.warning?.contains("is not allowed") == true, "\(verdict.warning ?? "")")
        let unverified = try authenticator.authenticate(
            optionsJSON: try created.options, origin: PasskeyRig.origin,
            choices: SoftwareAuthenticator.AssertionChoices(userVerified: false))
        #expect(try rig.verify(created, answer: unverified, with: handler).correct == false)
        for answer in ["", "{}", "not json", try created.options] {
            #expect(try rig.verify(created, answer: answer, with: handler).correct == false)
        }
    }

    @Test("an answer after the challenge expired is refused")
    func expired() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let created = try rig.create(for: .jane, with: handler)
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        rig.advance(181)
        #expect(try rig.verify(created, answer: answer, with: handler).correct == false)
        #expect(try rig.account(of: .jane)?.credentials.first?.signCount == 0)
    }

    @Test("one assertion sent to several function instances at once is accepted once", arguments: SoftwareAuthenticator.CounterPolicy.allCases)
    func concurrentVerify(policy: SoftwareAuthenticator.CounterPolicy) throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator(counterPolicy: policy)
        try rig.register(.jane, on: &authenticator)
        let created = try rig.create(for: .jane, with: try rig.handler())
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        let accepted = PosixLock<[Bool]>([])
        let failures = PosixLock<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let verdict = try rig.verify(created, answer: answer, with: try rig.handler())
                accepted.withLock { $0.append(verdict.correct) }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(accepted.withLock { $0 }.filter { $0 }.count == 1)
        #expect(try rig.account(of: .jane)?.credentials.first?.lastUsedAt == PasskeyRig.now)
    }

    @Test("srp+passkey: the passkey after the password")
    func afterPassword() throws {
        let rig = PasskeyRig(flow: "srp+passkey")
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        #expect(handler.engine.flow.description == "srp+passkey")
        let session: [JSONValue] = [
            ["challengeName": "SRP_A", "challengeResult": true, "challengeMetadata": nil],
            ["challengeName": "PASSWORD_VERIFIER", "challengeResult": true, "challengeMetadata": nil],
        ]
        guard case .create(let created) = try handler.handle(rig.createEvent(for: .jane, session: session)).event else {
            Issue.record("not a Create")
            return
        }
        let answer = try authenticator.authenticate(optionsJSON: try created.options, origin: PasskeyRig.origin)
        #expect(try rig.verify(created, answer: answer, with: handler).correct)
    }
}
