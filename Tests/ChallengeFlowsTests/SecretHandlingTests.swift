import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import Testing

@Suite("Secrets stay secret: the hash key, codes and answers")
struct SecretHandlingTests {
    @Test("a secret shorter than 32 bytes is refused without being shown", arguments: [0, 1, 16, 31])
    func shortSecret(length: Int) throws {
        let secretText = String("short-secret-never-printed-abcdefgh".prefix(length))
        let error = try #require(throws: ConfigurationError.self) {
            try ChallengeFlowEngine(
                flow: SignInFlow(parsing: "email-code"), policy: ChallengePolicy(), secret: Array(secretText.utf8),
                random: SeededRandom(seed: 1))
        }
        #expect(error.description.contains("CODE_HASH_SECRET"))
        #expect(error.description.contains("\(length) bytes"))
        #expect(error.description.contains("at least 32 bytes"))
        if length >= 4 { #expect(!error.description.contains(secretText)) }
        #expect(!String(reflecting: error).contains("short-secret"))
    }

    @Test("a 32-byte secret of varied bytes is accepted")
    func thirtyTwoBytes() throws {
        let engine = try ChallengeFlowEngine(
            flow: SignInFlow(parsing: "email-code"), policy: ChallengePolicy(), secret: Array(0..<32),
            random: SeededRandom(seed: 1))
        #expect(engine.flow.description == "email-code")
        #expect(ChallengeKeys.minimumLength == 32)
    }

    @Test("a long secret with too little variety is refused, naming the variable, not the value", arguments: [
        String(repeating: "a", count: 32), String(repeating: "ab", count: 32), String(repeating: "0123456789", count: 4),
    ])
    func secretWithoutVariety(secret: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ChallengeKeys(current: Array(secret.utf8))
        }
        #expect(error.description.hasPrefix("CODE_HASH_SECRET=\"(not shown)\" is refused"))
        #expect(error.description.contains("different characters"))
        #expect(!error.description.contains(secret))
    }

    @Test("hex secrets from `openssl rand -hex 32` pass the variety check")
    func hexSecretsPass() throws {
        let random = SeededRandom(seed: 9)
        for _ in 0..<500 {
            let hex = Hex.encode(try random.bytes(count: 32))
            _ = try ChallengeKeys(current: Array(hex.utf8))
        }
    }

    @Test("the previous secret must differ from the current one")
    func previousEqualsCurrent() throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ChallengeKeys(current: Fixture.secret, previous: Fixture.secret)
        }
        #expect(error.description.hasPrefix("CODE_HASH_SECRET_PREVIOUS="))
    }

    @Test("a flow with a CAPTCHA step needs a catalog", arguments: ["captcha", "captcha-email-code", "srp+email-code+captcha"])
    func captchaWithoutCatalog(flow: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ChallengeFlowEngine(flow: SignInFlow(parsing: flow), policy: ChallengePolicy(), secret: Fixture.secret,
                random: SeededRandom(seed: 1))
        }
        guard case .missing(let variable, _) = error else {
            Issue.record("expected .missing, got \(error)")
            return
        }
        #expect(variable == "CAPTCHA_CATALOG")
        #expect(error.description.contains("CAPTCHA_CATALOG is not set"))
    }

    @Test("no description of anything the triggers produce contains a code, an answer or the secret", arguments: [
        "email-code", "srp-email-code", "captcha-email-code",
    ])
    func descriptionsHoldNoSecrets(flow: String) throws {
        var driver = try Fixture.simulator(flow)
        _ = try driver.signIn(answers: [.wrong, .right, .wrong, .right])
        let codes = driver.delivered.map(\.code)
        #expect(!codes.isEmpty)
        let secrets = codes + Fixture.captchas.map(\.answer) + [Fixture.secretText]

        var values: [Any] = driver.challenges + driver.delivered
        values += driver.transcript.map { $0 as Any }
        values.append(FlowProgress(session: driver.session.dropLast(), flow: driver.engine.flow, policy: driver.engine.policy))
        values.append(CreateChallengeError.noCustomStepDue(.failed(.tooManyWrongAnswers(.emailCode))))
        values.append(try ChallengeKeys(current: Fixture.secret))
        #expect(values.count > 10)
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            for text in [String(describing: value), String(reflecting: value), dumped] {
                for secret in secrets {
                    #expect(!text.contains(secret), "\(type(of: value)) shows a secret")
                }
            }
        }
    }

    @Test("a CodeMessage describes itself without its code, but still carries it")
    func codeMessageDescription() {
        let message = CodeMessage(recipient: "jane.doe@example.com", userName: "jane", code: "482913", validForSeconds: 180)
        #expect(message.code == "482913")
        #expect(!String(describing: message).contains("482913"))
        #expect(!String(reflecting: message).contains("482913"))
        #expect(String(describing: message) == "code for jane by email to j***@e***.com, valid 180 s (code not shown)")
        let link = CodeMessage(
            channel: .email, recipient: "jane.doe@example.com", userName: "jane", code: "T0KEN",
            link: "https://app.example.com/?token=T0KEN", validForSeconds: 180)
        #expect(!String(describing: link).contains("T0KEN") && !String(reflecting: link).contains("T0KEN"))
        let text = CodeMessage(channel: .sms, recipient: "+15555550100", userName: "jane", code: "482913", validForSeconds: 180)
        #expect(String(describing: text) == "code for jane by sms to +*******0100, valid 180 s (code not shown)")
        var dumped = ""
        dump(message, to: &dumped)
        #expect(!dumped.contains("482913"))
        #expect(dumped.contains("(not shown)"))
    }
}
