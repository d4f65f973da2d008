import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import CognitoTriggers
import LosslessJSON
import Testing

/// Create's answer must not tell whether a user exists or has passkeys.
@Suite("Passkey decoys for unknown and passkey-less users")
struct PasskeyDecoyTests {
    /// What an observer can compare between two Create answers: the members, and per allowed credential its members,
    /// its id's length and its transports.
    struct Shape: Equatable {
        var publicKeys: [String]
        var optionKeys: [String]
        var credentialKeys: [[String]]
        var idLengths: [Int]
        var transports: [[String]]

        init(_ created: CreateAuthChallengeEvent) throws {
            publicKeys = (created.response.publicChallengeParameters ?? [:]).keys.sorted()
            let options = try created.optionsObject
            optionKeys = options.keys
            let allowed = (options["allowCredentials"]?.arrayValue ?? []).compactMap(\.objectValue)
            credentialKeys = allowed.map(\.keys)
            idLengths = try created.allowedIDs.map(\.count)
            transports = allowed.map { ($0["transports"]?.arrayValue ?? []).compactMap(\.stringValue) }
        }
    }

    static let plausibleTransports: Set<[String]> = [["hybrid", "internal"], ["internal"], ["nfc", "usb"], ["hybrid"], ["usb"]]

    @Test("unknown users and users without passkeys get one or two credentials shaped like real ones, the same every time", arguments: [TestUser.unknown, TestUser.john])
    func decoysLookReal(user: TestUser) throws {
        let rig = PasskeyRig()
        let handler = try rig.handler()
        let first = try rig.create(for: user, with: handler)
        let second = try rig.create(for: user, with: handler)
        let shape = try Shape(first)
        #expect(shape.publicKeys == ["attemptsLeft", "challenge", "options"])
        #expect(shape.optionKeys == ["challenge", "timeout", "rpId", "allowCredentials", "userVerification"])
        #expect((1...2).contains(shape.idLengths.count))
        #expect(shape.credentialKeys.allSatisfy { $0 == ["type", "id", "transports"] })
        #expect(shape.idLengths.allSatisfy { [16, 20, 32].contains($0) }, "\(shape.idLengths)")
        #expect(shape.transports.allSatisfy { Self.plausibleTransports.contains($0) }, "\(shape.transports)")
        // Stable for the name; the challenge is fresh every time.
        #expect(try second.allowedIDs == first.allowedIDs)
        #expect(try Shape(second) == shape)
        #expect(try second.optionsObject["challenge"] != first.optionsObject["challenge"])
        // A name differing only in case gets the same decoys (Cognito user names are case-insensitive by default).
        let shouted = try rig.create(for: TestUser(userName: user.userName.uppercased(), sub: user.sub), with: handler)
        #expect(try shouted.allowedIDs == first.allowedIDs)
    }

    @Test("a user with a passkey, a user without and an unknown user get answers of one shape")
    func sameShape() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        let real = try Shape(try rig.create(for: .jane, with: handler))
        for user in [TestUser.john, .unknown] {
            let decoy = try Shape(try rig.create(for: user, with: handler))
            #expect(decoy.publicKeys == real.publicKeys)
            #expect(decoy.optionKeys == real.optionKeys)
            #expect(Set(decoy.credentialKeys) == Set(real.credentialKeys))
        }
    }

    @Test("different names get different decoys, none of them a real credential")
    func decoysDiffer() throws {
        let rig = PasskeyRig()
        var authenticator = try SoftwareAuthenticator()
        let credential = try rig.register(.jane, on: &authenticator)
        let handler = try rig.handler()
        var seen: Set<[[UInt8]]> = []
        for name in (0..<20).map({ "user\($0)" }) {
            let ids = try rig.create(for: TestUser(userName: name, sub: nil), with: handler).allowedIDs
            #expect(!ids.contains(credential.id))
            seen.insert(ids)
        }
        #expect(seen.count == 20)
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

    @Test("the step alone, without the engine, offers decoys and refuses what it cannot check")
    func stepAlone() throws {
        let step = PasskeyStep(settings: PasskeySettings(relyingParty: PasskeyRig.relyingParty))
        let context = StepContext(
            user: UserIdentity(userPoolId: PasskeyRig.userPoolId, userName: "jane"), userAttributes: [:],
            now: PasskeyRig.now, policy: try ChallengePolicy())
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
