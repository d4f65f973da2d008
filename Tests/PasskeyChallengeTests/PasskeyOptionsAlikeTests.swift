import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import LosslessJSON
import Platform
import Testing
import WebAuthnCeremonies

/// Create's answer must not tell whether a user exists or has passkeys: the options name no credential for anyone
/// (the browser offers the user's discoverable passkeys), so they differ only in their fresh challenge.
@Suite("Passkey options alike for every user name")
struct PasskeyOptionsAlikeTests {
    /// Create's answer without what is fresh each time (the challenge).
    static func comparable(_ created: CreateAuthChallengeEvent) throws -> JSONObject {
        var options = try created.optionsObject
        options["challenge"] = nil
        var answer = JSONObject()
        for (name, value) in (created.response.publicChallengeParameters ?? [:]).sorted(by: { $0.key < $1.key }) {
            answer[name] = name == "options" ? .object(options) : .string(value)
        }
        return answer
    }

    @Test("users with 0, 1, 3 and 5 passkeys (64-byte ids, unusual transports) and unknown users get one answer")
    func sameAnswerForEveryone() throws {
        let rig = PasskeyRig(extra: ["PASSKEY_MAX_CREDENTIALS": "10"])
        var authenticator = try SoftwareAuthenticator()
        let users = (0..<4).map { TestUser(userName: "user\($0)", sub: "sub-\($0)") }
        for (user, count) in zip(users, [0, 1, 3, 5]) where count > 0 {
            for _ in 0..<count { try rig.register(user, on: &authenticator, transports: ["ble", "smart-card", "usb"]) }
            // A security key's 64-byte credential ids.
            var account = try #require(try rig.account(of: user))
            for index in account.credentials.indices { account.credentials[index].id = try SystemRandom().bytes(count: 64) }
            try rig.write(account, for: user, over: try rig.record(of: user))
        }
        let handler = try rig.handler()
        let reference = try Self.comparable(try rig.create(for: .unknown, with: handler))
        #expect(reference["options"]?.objectValue?["allowCredentials"] == [])
        for user in users + [.unknown, TestUser(userName: "JOHN", sub: nil)] {
            let created = try rig.create(for: user, with: handler)
            #expect(try Self.comparable(created) == reference, "\(user.userName)")
            #expect(try created.optionsObject["challenge"] != nil)
        }
    }

    @Test("every answer of an unknown or passkey-less user is refused, even one signed by a real passkey")
    func decoyAnswersRefused() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        for user in [TestUser.john, .unknown] {
            let created = try rig.create(for: user, with: handler)
            var options = try created.optionsObject
            options["allowCredentials"] = []
            let answer = try authenticator.authenticate(optionsJSON: JSONValue.object(options).text(), origin: PasskeyRig.origin)
            #expect(try rig.verify(created, answer: answer, with: handler).correct == false)
        }
    }

    @Test("a passkey flow without PASSKEY_RP_ID, or without a state store, does not start, naming the variable")
    func configurationRefused() throws {
        let rig = PasskeyRig()
        var environment = rig.environment
        environment["PASSKEY_RP_ID"] = nil
        environment["PASSKEY_ALLOWED_ORIGINS"] = nil
        environment["PASSKEY_RP_NAME"] = nil
        let missing = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(missing?.description.hasPrefix("PASSKEY_RP_ID is not set") == true, "\(missing?.description ?? "")")

        var withoutStore = rig.environment
        withoutStore["STATE_STORE"] = nil
        let configuration = try TriggerConfiguration(environment: withoutStore)
        let noStore = #expect(throws: ConfigurationError.self) { try CognitoTriggerHandler(configuration: configuration) }
        #expect(noStore?.description.hasPrefix("STATE_STORE is not set") == true, "\(noStore?.description ?? "")")
        #expect(noStore?.description.contains("\"passkey\"") == true)
    }

    @Test("the step alone, without the engine, builds its options and refuses what it cannot check")
    func stepAlone() throws {
        let step = PasskeyStep(settings: PasskeySettings(relyingParty: PasskeyRig.relyingParty))
        let context = StepContext(
            user: UserIdentity(userPoolId: PasskeyRig.userPoolId, userName: "jane"), userAttributes: [:],
            now: PasskeyRig.now, random: SystemRandom(), policy: try ChallengePolicy())
        let made = try step.create(context)
        guard case .answer(let challenge) = made.sealing else {
            Issue.record("the challenge is sealed as the answer")
            return
        }
        #expect(Base64URL.decode(challenge)?.count == 32)
        let text = try #require(made.publicParameters["options"])
        let options = try JSONValue(parsing: text).objectValue
        #expect(options?["challenge"]?.stringValue == challenge)
        #expect(step.judge("{}", context: context) == .wrong)
        #expect(throws: ConfigurationError.self) {
            try PasskeyStep(settings: nil).checkConfiguration(in: SignInFlow(startsWithPassword: false, steps: [step]))
        }
    }
}
