import DevelopmentSupport
import Invoker
import ChallengeFlows
import CognitoTriggers
import Foundation
import TestSupport
import Testing

@Suite struct TriggerConfigurationTests {
    static let secret = CorpusEvent.secret
    static let minimal = ["CODE_HASH_SECRET": secret, "CODE_DELIVERY": "outbox"]

    @Test func defaultsNeedOnlyTheSecretAndTheDelivery() throws {
        let configuration = try TriggerConfiguration(environment: Self.minimal)
        #expect(configuration.flow.description == "email-code")
        #expect(configuration.policy == (try ChallengePolicy(codeLength: 6, maxAttempts: 3, validitySeconds: 180)))
        #expect(configuration.delivery == .outbox(path: TriggerConfiguration.defaultOutboxPath))
        #expect(configuration.requireVerifiedEmail)
        #expect(configuration.startupWarnings.isEmpty)
    }

    @Test("a named choice stands for its choice in a '+' list, and reads back by its name", arguments: [
        ("email-or-sms-code", false, "email-code|sms-code"), ("srp+email-or-sms-code", true, "srp+email-code|sms-code"),
        ("captcha+email-or-sms-code", false, "captcha+email-code|sms-code"),
        ("srp+passkey-or-email-code", true, "srp+passkey|email-code"),
    ])
    func namedChoiceInAComposition(flow: String, startsWithPassword: Bool, written: String) throws {
        let environment = Self.withPasskeys(flow: flow)
        let named = try TriggerConfiguration(environment: environment).flow
        let spelled = try TriggerConfiguration(environment: environment.merging(["CHALLENGE_FLOW": written]) { $1 }).flow
        #expect(named == spelled)
        #expect(named.description == flow && spelled.description == flow)
        #expect(named.startsWithPassword == startsWithPassword)
        let position = try #require(named.choices.keys.first)
        #expect(named.steps[position - 1] is MethodChoiceStep)
        #expect(named.steps(at: position).map(\.name) == written.split(separator: "+").last?.split(separator: "|").map(String.init))
    }

    @Test("a named choice is refused inside a choice, and beside another choice", arguments: [
        "email-or-sms-code|passkey", "email-or-sms-code+passkey-or-email-code", "srp+email-or-sms-code+captcha|email-code",
    ])
    func namedChoiceRefused(flow: String) throws {
        #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: Self.withPasskeys(flow: flow)) }
        // Each part alone is a flow: the refusal is the composition's.
        for part in ["email-or-sms-code", "passkey", "passkey-or-email-code", "srp+email-or-sms-code", "srp+captcha|email-code"] {
            _ = try TriggerConfiguration(environment: Self.withPasskeys(flow: part))
        }
    }

    /// The minimal settings with passkeys and a CAPTCHA catalog configured, for `flow`.
    static func withPasskeys(flow: String) -> [String: String] {
        minimal.merging([
            "CHALLENGE_FLOW": flow, "PASSKEY_RP_ID": "example.com", "PASSKEY_ALLOWED_ORIGINS": "https://example.com",
            "STATE_STORE": "memory", "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
        ]) { $1 }
    }

    @Test("a function with no CODE_DELIVERY does not start: it would write codes to /tmp and send nothing")
    func deliveryMustBeExplicit() {
        let error = #expect(throws: ConfigurationError.self) {
            try TriggerConfiguration(environment: ["CODE_HASH_SECRET": Self.secret])
        }
        #expect(error?.description.hasPrefix("CODE_DELIVERY is not set") == true, "\(error?.description ?? "")")
    }

    /// A catalog image's URL and answer never change: a bot that memorises them after one human solve passes every
    /// later CAPTCHA, the step-up included. So no CAPTCHA comes from the catalog unless allowed, for development.
    @Test("a CAPTCHA from the catalog (a captcha step or the step-up) is refused unless allowed, then warned; a widget provider is not")
    func catalogCaptchasAreForDevelopmentOnly() throws {
        let catalog = ["CAPTCHA_CATALOG": CorpusEvent.captchaCatalog]
        let uses: [[String: String]] = [
            ["CHALLENGE_FLOW": "captcha-email-code"],
            ["CHALLENGE_FLOW": "email-code", "STATE_STORE": "memory", "CAPTCHA_STEP_UP_AFTER_FAILURES": "3"],
            ["CHALLENGE_FLOW": "srp+captcha+email-code", "CAPTCHA_PROVIDER": "catalog"],
        ]
        for use in uses {
            let environment = Self.minimal.merging(catalog) { $1 }.merging(use) { $1 }
            let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
            #expect(error?.description.hasPrefix(#"CAPTCHA_PROVIDER="catalog" is refused"#) == true, "\(error?.description ?? "")")
            #expect(error?.description.contains("passes every later CAPTCHA") == true)
            #expect(error?.description.contains("ALLOW_CAPTCHA_CATALOG=true") == true)
            let allowed = try TriggerConfiguration(environment: environment.merging(["ALLOW_CAPTCHA_CATALOG": "true"]) { $1 })
            #expect(allowed.startupWarnings.contains { $0.hasPrefix("the CAPTCHA comes from the self-hosted catalog") })
        }
        // No CAPTCHA at all, or a provider's widget (single-use tokens checked with the provider): nothing to allow.
        #expect(try TriggerConfiguration(environment: Self.minimal.merging(catalog) { $1 }).startupWarnings.allSatisfy { !$0.contains("catalog") })
        let widget = try TriggerConfiguration(environment: Self.turnstile.merging(["CAPTCHA_SECRET": Self.captchaSecret]) { $1 })
        #expect(widget.startupWarnings.allSatisfy { !$0.contains("catalog") })
    }

    @Test("a CAPTCHA-only flow is refused, naming the risk, unless allowed for a demo (then a warning at every start)")
    func captchaOnlyFlow() throws {
        let environment = Self.minimal.merging(["CHALLENGE_FLOW": "captcha", "CAPTCHA_CATALOG": CorpusEvent.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.hasPrefix(#"CHALLENGE_FLOW="captcha" is refused"#) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("anyone who knows a user name") == true)
        #expect(error?.description.contains("ALLOW_CAPTCHA_ONLY_SIGN_IN=true") == true)
        for flow in ["captcha+captcha", " CAPTCHA "] {
            #expect(throws: ConfigurationError.self) {
                try TriggerConfiguration(environment: environment.merging(["CHALLENGE_FLOW": flow]) { $1 })
            }
        }

        let allowed = try TriggerConfiguration(environment: environment.merging(["ALLOW_CAPTCHA_ONLY_SIGN_IN": "true"]) { $1 })
        // This flow's warning, and the catalog's.
        #expect(allowed.startupWarnings.count == 2)
        #expect(allowed.startupWarnings.first?.contains("proves no identity") == true)
        for flow in ["captcha-email-code", "srp+captcha", "captcha+email-code"] {
            let proven = try TriggerConfiguration(
                environment: environment.merging(["CHALLENGE_FLOW": flow]) { $1 })
            #expect(!proven.startupWarnings.contains { $0.contains("proves no identity") })
        }
    }

    @Test(arguments: [
        (["CHALLENGE_FLOW": "carrier-pigeon"], "CHALLENGE_FLOW"),
        (["CHALLENGE_FLOW": "magic-link"], "MAGIC_LINK_URL"),
        (["CODE_LENGTH": "4"], "CODE_LENGTH"),
        (["CODE_LENGTH": "six"], "CODE_LENGTH"),
        (["MAX_ATTEMPTS": "0"], "MAX_ATTEMPTS"),
        (["CODE_TTL_SECONDS": "5"], "CODE_TTL_SECONDS"),
        (["CODE_DELIVERY": "carrier-pigeon"], "CODE_DELIVERY"),
        (["CAPTCHA_CATALOG": "/nonexistent/catalog.json"], "CAPTCHA_CATALOG"),
        (["REQUIRE_VERIFIED_EMAIL": "yes"], "REQUIRE_VERIFIED_EMAIL"),
        (["REQUIRE_VERIFIED_PHONE": "no"], "REQUIRE_VERIFIED_PHONE"),
        (["MAGIC_LINK_URL": "https://app.example.com/sign-in"], "MAGIC_LINK_URL"),
        (["ALLOW_CAPTCHA_ONLY_SIGN_IN": "1"], "ALLOW_CAPTCHA_ONLY_SIGN_IN"),
        (["DECOY_DELAY_MS": "5000"], "DECOY_DELAY_MS"),
        (["CODE_HASH_SECRET_PREVIOUS": String(repeating: "x", count: 40)], "CODE_HASH_SECRET_PREVIOUS"),
        (["DECOY_MASK_SECRET": "short"], "DECOY_MASK_SECRET"),
    ])
    func invalidSettingNamesItsVariable(overrides: [String: String], variable: String) {
        let environment = Self.minimal.merging(["CHALLENGE_FLOW": "captcha-email-code"]) { $1 }.merging(overrides) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.hasPrefix(variable) == true, "\(error?.description ?? "")")
    }

    /// A provider's secret key comes, like the code hash secret, from `CAPTCHA_SECRET` or the SSM parameter
    /// `CAPTCHA_SECRET_PARAMETER` names (read by the same `Secrets.read(from:)`, as the function reads them at
    /// start-up); here Parameter Store is unreachable (127.0.0.1:1), so each case shows which variable is blamed and
    /// that the secret is never shown.
    static let turnstile = minimal.merging([
        "CHALLENGE_FLOW": "captcha-email-code", "CAPTCHA_PROVIDER": "turnstile", "CAPTCHA_SITE_KEY": "0x4AAAAAAASiteKey",
        "CAPTCHA_ALLOWED_HOSTNAMES": "login.example.com", "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL",
        "AWS_SECRET_ACCESS_KEY": "local-secret", "SSM_ENDPOINT": "http://127.0.0.1:1",
    ]) { $1 }
    static let captchaSecret = "0x4AAAAAAACaptchaSecretForTests"

    @Test func captchaSecretFromItsVariable() throws {
        let configuration = try TriggerConfiguration(environment: Self.turnstile.merging(["CAPTCHA_SECRET": Self.captchaSecret]) { $1 })
        #expect(configuration.captchaProvider?.secret.value == Self.captchaSecret)
    }

    @Test("CAPTCHA_SECRET and CAPTCHA_SECRET_PARAMETER together are refused, showing neither secret")
    func captchaSecretAndItsParameterTogether() {
        let environment = Self.turnstile.merging([
            "CAPTCHA_SECRET": Self.captchaSecret, "CAPTCHA_SECRET_PARAMETER": "/app/captcha-secret",
        ]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try Self.configuration(readingSecrets: environment) }
        #expect(error?.description.hasPrefix("CAPTCHA_SECRET") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("CAPTCHA_SECRET_PARAMETER is set too") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(Self.captchaSecret) == false)
    }

    @Test func anUnreadableCaptchaSecretParameterIsNamed() {
        let environment = Self.turnstile.merging(["CAPTCHA_SECRET_PARAMETER": "/app/captcha-secret"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try Self.configuration(readingSecrets: environment) }
        #expect(error?.description.hasPrefix("CAPTCHA_SECRET_PARAMETER=\"/app/captcha-secret\"") == true, "\(error?.description ?? "")")
    }

    @Test func aMissingCaptchaSecretPointsToTheParameter() {
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: Self.turnstile) }
        #expect(error?.description.hasPrefix("CAPTCHA_SECRET is not set") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("CAPTCHA_SECRET_PARAMETER") == true)
    }

    @Test("a misspelt provider is reported before Parameter Store is asked for its secret")
    func aMisspeltProviderComesFirst() {
        let environment = Self.turnstile.merging(["CAPTCHA_PROVIDER": "turnstyle", "CAPTCHA_SECRET_PARAMETER": "/app/captcha-secret"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try Self.configuration(readingSecrets: environment) }
        #expect(error?.description.hasPrefix("CAPTCHA_PROVIDER") == true, "\(error?.description ?? "")")
    }

    /// The configuration as the function makes it: the secrets read first (Parameter Store included), then the rest.
    static func configuration(readingSecrets environment: [String: String]) throws -> TriggerConfiguration {
        try TriggerConfiguration(
            environment: environment, secrets: Secrets.read(from: environment), captchaCatalog: CaptchaCatalog.read(from: environment))
    }

    @Test("a configuration made without reading the network refuses a secret that names a parameter, saying who reads it")
    func plainSecretsRefuseParameters() {
        let environment = Self.turnstile.merging(["CAPTCHA_SECRET_PARAMETER": "/app/captcha-secret"]) { $1 }
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.hasPrefix("CAPTCHA_SECRET_PARAMETER") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("Secrets.read(from:)") == true)
    }

    static let sesEnvironment = [
        "CODE_HASH_SECRET": secret, "CODE_DELIVERY": "ses", "SES_FROM_ADDRESS": "no-reply@example.com",
        "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret-key",
    ]

    @Test func sesDeliveryIsReadFromTheAWSAndSESVariables() throws {
        let configuration = try TriggerConfiguration(
            environment: Self.sesEnvironment.merging(["SES_ENDPOINT": "http://127.0.0.1:4566"]) { $1 })
        guard case .ses(let ses) = configuration.delivery else {
            Issue.record("CODE_DELIVERY=ses should select SES, got \(configuration.delivery)")
            return
        }
        #expect(ses.fromAddress == "no-reply@example.com")
        #expect(ses.region == "eu-west-1")
        #expect(ses.endpoint.baseURL == "http://127.0.0.1:4566")
        #expect(ses.timeBudget <= .seconds(3))
    }

    @Test(arguments: ["SES_FROM_ADDRESS", "AWS_REGION", "AWS_ACCESS_KEY_ID"])
    func sesWithoutARequiredVariableNamesIt(missing: String) {
        var environment = Self.sesEnvironment
        environment[missing] = nil
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: environment) }
        #expect(error?.description.contains(missing) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("very-secret-key") == false)
    }

    @Test func missingSecretIsReportedWithAHint() {
        let error = #expect(throws: ConfigurationError.self) { try TriggerConfiguration(environment: [:]) }
        #expect(error?.description.contains("CODE_HASH_SECRET is not set") == true)
    }

    @Test func shortSecretIsRejectedWithoutEchoingIt() throws {
        let secret = "tooshort-but-secret"
        let error = #expect(throws: ConfigurationError.self) {
            try TriggerConfiguration(environment: ["CODE_HASH_SECRET": secret, "CODE_DELIVERY": "outbox"])
        }
        #expect(error?.description.contains("CODE_HASH_SECRET") == true)
        #expect(error?.description.contains(secret) == false)
    }

    @Test func captchaFlowWithoutCatalogIsRejectedAtStartUp() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try TriggerConfiguration(environment: Self.minimal.merging(["CHALLENGE_FLOW": "captcha-email-code"]) { $1 })
        }
        #expect(error?.description.hasPrefix("CAPTCHA_CATALOG") == true)
    }

    @Test func malformedCatalogNamesTheProblem() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID()).json")
        try Data(#"[{"imageURL": "https://example.com/a.png"}]"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let error = #expect(throws: ConfigurationError.self) {
            try TriggerConfiguration(environment: Self.minimal.merging(["CAPTCHA_CATALOG": file.path]) { $1 })
        }
        #expect(error?.description.contains("entry 0 needs string fields imageURL and answer") == true)
    }

    @Test func shippedCatalogLoads() throws {
        let entries = try CaptchaCatalog.load(path: CorpusEvent.captchaCatalog)
        #expect(entries.count >= 2)
        #expect(entries.allSatisfy { $0.imageURL.hasPrefix("https://") && !$0.answer.isEmpty })
    }
}
