import Basics
import ChallengeCrypto
import ChallengeFlows
import LosslessJSON
import Platform
import ServiceClients
import WebAuthnCeremonies

/// Everything the triggers need, read once from the environment at start-up.
public struct TriggerConfiguration: Sendable {
    /// Where codes go.
    public enum Delivery: Sendable, Equatable {
        /// A local JSON-lines file (development, tests, the invoker).
        case outbox(path: String)
        /// Amazon SES (v2 `SendEmail`), configured by the `SES_*`, `EMAIL_*` and AWS variables.
        case ses(SESConfiguration)
    }

    /// Where text messages go, for a flow that sends them (`SMS_DELIVERY`).
    public enum SMSDeliveryChoice: Sendable, Equatable {
        /// The same local file as the email outbox.
        case outbox(path: String)
        /// Amazon SNS `Publish`, configured by the `SNS_*`, `SMS_*` and AWS variables.
        case sns(SNSConfiguration)
    }

    /// The sign-in flow (`CHALLENGE_FLOW`), its steps configured from the environment.
    public let flow: SignInFlow
    public let policy: ChallengePolicy
    public let delivery: Delivery
    /// Where text messages go; nil when the flow sends none.
    public let smsDelivery: SMSDeliveryChoice?
    /// A self-hosted CAPTCHA catalog (`CAPTCHA_PROVIDER=catalog`, the default, with `CAPTCHA_CATALOG`).
    public let captchas: [CaptchaEntry]
    /// A CAPTCHA provider whose widget tokens Verify checks through siteverify (`CAPTCHA_PROVIDER=turnstile`,
    /// `recaptcha` or `hcaptcha`).
    public let captchaProvider: CaptchaProviderConfiguration?
    /// Codes go only to addresses whose `email_verified` is `"true"` (`REQUIRE_VERIFIED_EMAIL`, true by default).
    public let requireVerifiedEmail: Bool
    /// Codes are texted only to numbers whose `phone_number_verified` is `"true"` (`REQUIRE_VERIFIED_PHONE`, true by
    /// default).
    public let requireVerifiedPhone: Bool
    /// The countries codes may be texted to (`SMS_ALLOWED_COUNTRIES`); nil for any.
    public let smsCountries: CallingCodes?
    /// Where sign-in links point (`MAGIC_LINK_URL`), when set.
    public let magicLinkURL: MagicLinkURL?
    /// The typical time a delivery takes on each channel before any has been measured (`DECOY_DELAY_MS` for email,
    /// `DECOY_DELAY_SMS_MS` for text messages): a Create that sends nothing waits about this long for its channel
    /// until real deliveries on that channel have been timed.
    public let typicalDeliveryTimes: [MessageChannel: Duration]
    /// Settings that work but deserve a warning at every start (e.g. a CAPTCHA-only flow allowed for a demo).
    public let startupWarnings: [String]
    /// Where per-user state across sign-ins is kept (`STATE_STORE`), and the limits it enforces.
    public let stateStore: StateStoreConfiguration
    public let limits: SignInLimits
    /// The sign-in funnel's metrics (`METRICS`, `METRICS_NAMESPACE`).
    public let metrics: MetricsSettings
    /// How passkeys work (`PASSKEY_RP_ID` and the other `PASSKEY_*` variables); nil when `PASSKEY_RP_ID` is unset.
    /// The `passkey` sign-in step and the registration API both need it.
    public let passkeys: PasskeySettings?
    /// How the passkey API proves its callers (`COGNITO_IDP_ENDPOINT`, `PASSKEY_RECENT_SIGN_IN_SECONDS`).
    public let passkeyAPI: PasskeyAPISettings
    let keys: ChallengeKeys
    /// The CAPTCHA put in front of a step that proves identity once a user's wrong answers reach
    /// `CAPTCHA_STEP_UP_AFTER_FAILURES`: the configured provider's widget or catalog; nil when step-ups are off.
    public let captchaStepUp: CaptchaStep?

    public static let defaultOutboxPath = "/tmp/cognito-challenge-outbox.jsonl"

    /// Reads the configuration; every problem is reported with the variable to fix.
    ///
    /// Reads no network: the secrets come from plain variables here (a `…_PARAMETER` variable is refused), or from
    /// ``init(environment:secrets:captchaCatalog:steps:)``. The CAPTCHA catalog `CAPTCHA_CATALOG` names is read here.
    ///
    /// - Parameters:
    ///   - environment: the function's environment variables.
    ///   - steps: challenge steps of your own, which `CHALLENGE_FLOW` may name next to the built-in ones.
    public init(environment: [String: String], steps: [any ChallengeStep] = []) throws(ConfigurationError) {
        try self.init(
            environment: environment, secrets: Secrets(plain: environment),
            captchaCatalog: CaptchaCatalog.read(from: environment), steps: steps)
    }

    /// Reads the configuration from the environment and what the composition root read for it at start-up: the
    /// secrets (``Secrets/read(from:)``, which reads Parameter Store) and the CAPTCHA catalog
    /// (``CaptchaCatalog/read(from:)``, a file). It reads no network, and no file but the passkey attestation roots
    /// `PASSKEY_ATTESTATION_ROOTS` names; every problem is reported with the variable to fix.
    ///
    /// - Parameters:
    ///   - environment: the function's environment variables.
    ///   - secrets: the secrets `environment` names, read once at start-up.
    ///   - captchaCatalog: the entries of the catalog `CAPTCHA_CATALOG` names, read once at start-up.
    ///   - steps: challenge steps of your own, which `CHALLENGE_FLOW` may name next to the built-in ones.
    public init(
        environment: [String: String], secrets: Secrets, captchaCatalog: [CaptchaEntry], steps: [any ChallengeStep] = []
    ) throws(ConfigurationError) {
        let value = EnvironmentReader(environment).value
        let specification = value("CHALLENGE_FLOW") ?? "email-code"
        // Read first with the built-in steps unconfigured, so that a bad flow is the first thing reported.
        let declared = try SignInFlow(
            parsing: specification, registry: StepRegistry.builtIn().adding(Self.moduleSteps()).adding(steps))
        var warnings: [String] = []
        let allowsCaptchaOnly = try Self.boolean("ALLOW_CAPTCHA_ONLY_SIGN_IN", in: environment, default: false)
        if !declared.provesIdentity {
            let risk = "a CAPTCHA proves that a human is there, not who it is, so this flow signs in anyone who knows a user name and solves one"
            guard allowsCaptchaOnly else {
                throw .refused(
                    variable: "CHALLENGE_FLOW", value: declared.description,
                    reason: "\(risk); put the CAPTCHA in front of a step that proves identity (e.g. \"captcha-email-code\"), or set ALLOW_CAPTCHA_ONLY_SIGN_IN=true for a demo")
            }
            warnings.append("CHALLENGE_FLOW=\"\(declared)\" proves no identity: \(risk) (allowed by ALLOW_CAPTCHA_ONLY_SIGN_IN=true; never deploy it)")
        }
        policy = try ChallengePolicy(
            codeLength: try Self.integer("CODE_LENGTH", in: environment, default: 6),
            maxAttempts: try Self.integer("MAX_ATTEMPTS", in: environment, default: 3),
            validitySeconds: try Self.integer("CODE_TTL_SECONDS", in: environment, default: 180))
        guard let secret = secrets.value(of: "CODE_HASH_SECRET") else {
            throw .missing(
                variable: "CODE_HASH_SECRET",
                hint: "set CODE_HASH_SECRET_PARAMETER to an SSM SecureString parameter holding at least 32 bytes of random text (e.g. `openssl rand -hex 32`), or CODE_HASH_SECRET itself for local runs; it keys the answer hashes")
        }
        keys = try ChallengeKeys(
            current: secret, previous: secrets.value(of: "CODE_HASH_SECRET_PREVIOUS"),
            decoy: secrets.value(of: "DECOY_MASK_SECRET"))
        requireVerifiedEmail = try Self.boolean("REQUIRE_VERIFIED_EMAIL", in: environment, default: true)
        requireVerifiedPhone = try Self.boolean("REQUIRE_VERIFIED_PHONE", in: environment, default: true)
        if let template = value(MagicLinkURL.variable) {
            do {
                magicLinkURL = try MagicLinkURL(template: template)
            } catch {
                throw .setting(SettingError(variable: MagicLinkURL.variable, problem: "cannot be used: \(error)"))
            }
        } else {
            magicLinkURL = nil
        }
        if magicLinkURL?.sendsTokenToServer == true {
            warnings.append("MAGIC_LINK_URL puts {token} where the browser sends it to the server, whose logs then hold live sign-in tokens: put it in the fragment, e.g. https://app.example.com/sign-in#token={token}")
        }
        switch value("CODE_DELIVERY") {
        case nil:
            throw .missing(
                variable: "CODE_DELIVERY",
                hint: "set it to \"ses\" to email codes through Amazon SES, or to \"outbox\" for local development (codes are written to a file and never sent)")
        case "outbox":
            delivery = .outbox(path: value("OUTBOX_PATH") ?? Self.defaultOutboxPath)
        case "ses":
            do {
                delivery = .ses(try SESConfiguration(environment: environment))
            } catch {
                throw .setting(error)
            }
        case let other?:
            throw .invalid(variable: "CODE_DELIVERY", value: other, expected: "\"ses\" or \"outbox\"")
        }
        smsDelivery = try Self.smsDelivery(
            in: environment, email: delivery, needed: declared.deliveryChannels.contains(.sms))
        if let list = value("SMS_ALLOWED_COUNTRIES") {
            guard let codes = CallingCodes(list: list) else {
                throw .invalid(
                    variable: "SMS_ALLOWED_COUNTRIES", value: list,
                    expected: "country calling codes separated by commas, such as \"1,44,49\"")
            }
            smsCountries = codes
        } else {
            smsCountries = nil
            if case .sns? = smsDelivery {
                warnings.append("SMS_ALLOWED_COUNTRIES is not set: codes may be texted to any country, including premium-rate ranges (SMS pumping); list the calling codes of your users' countries")
            }
        }
        let deliversByEmail = if case .ses = delivery { true } else { false }
        let deliversBySNS = if case .sns? = smsDelivery { true } else { false }
        typicalDeliveryTimes = [
            .email: try Self.milliseconds("DECOY_DELAY_MS", in: environment, default: deliversByEmail ? 150 : 1),
            .sms: try Self.milliseconds("DECOY_DELAY_SMS_MS", in: environment, default: deliversBySNS ? 300 : 1),
        ]
        do {
            stateStore = try StateStoreConfiguration(environment: environment)
        } catch {
            throw .setting(error)
        }
        limits = try SignInLimits(environment: environment)
        metrics = try MetricsSettings(environment: environment)
        passkeys = try Self.passkeySettings(in: environment)
        passkeyAPI = try PasskeyAPISettings(environment: environment)
        switch value("CAPTCHA_PROVIDER") {
        case nil, "catalog":
            captchaProvider = nil
            captchas = captchaCatalog
        case let name?:
            // The secret key, like the code hash secret, is CAPTCHA_SECRET or the SSM parameter CAPTCHA_SECRET_PARAMETER
            // names; it is looked at only for a provider that exists, so that a misspelt provider is reported first.
            let secret: [UInt8]? =
                if CaptchaProvider(rawValue: name.lowercased()) != nil { secrets.value(of: "CAPTCHA_SECRET") } else { nil }
            do {
                captchaProvider = try CaptchaProviderConfiguration(
                    environment: environment, secret: secret.map { String(decoding: $0, as: UTF8.self) },
                    secretVariable: secrets.source(of: "CAPTCHA_SECRET"))
            } catch {
                throw .setting(error)
            }
            captchas = []
        }
        let registry = try StepRegistry.builtIn(
            captchas: captchas, captchaWidget: captchaProvider?.publicParameters(), requireVerifiedEmail: requireVerifiedEmail
        ).adding(
            Self.moduleSteps(
                linkURL: magicLinkURL, requireVerifiedEmail: requireVerifiedEmail, requireVerifiedPhone: requireVerifiedPhone,
                smsCountries: smsCountries, passkeys: passkeys)
        ).adding(steps)
        flow = try SignInFlow(parsing: specification, registry: registry)
        for step in flow.allSteps { try step.checkConfiguration(in: flow) }
        captchaStepUp = try Self.captchaStepUp(after: limits.captchaStepUpAfterFailures, registry: registry)
        let catalogSteps = (flow.allSteps + (captchaStepUp.map { [$0] } ?? [])).compactMap { $0 as? CaptchaStep }
        if catalogSteps.contains(where: { if case .catalog = $0.source { true } else { false } }) {
            let risk = "a catalog image has a fixed public URL and a fixed answer, so a bot that pays for one human solve per image passes every later CAPTCHA, the step-up included"
            guard try Self.boolean("ALLOW_CAPTCHA_CATALOG", in: environment, default: false) else {
                throw .refused(
                    variable: "CAPTCHA_PROVIDER", value: value("CAPTCHA_PROVIDER") ?? "catalog",
                    reason: "\(risk); name a widget provider (turnstile, recaptcha or hcaptcha) with its keys, or set ALLOW_CAPTCHA_CATALOG=true for development and demos")
            }
            warnings.append("the CAPTCHA comes from the self-hosted catalog: \(risk) (allowed by ALLOW_CAPTCHA_CATALOG=true; never deploy it)")
        }
        startupWarnings = warnings
    }

    /// The registry's CAPTCHA for step-ups after `failures` wrong answers (0: none); throws when there is no CAPTCHA
    /// to show (no provider and an empty catalog).
    private static func captchaStepUp(after failures: Int64, registry: StepRegistry) throws(ConfigurationError) -> CaptchaStep? {
        guard failures > 0, let captcha = registry.step(named: "captcha") as? CaptchaStep else { return nil }
        if case .catalog(let entries) = captcha.source, entries.isEmpty {
            throw .missing(
                variable: "CAPTCHA_PROVIDER",
                hint: "CAPTCHA_STEP_UP_AFTER_FAILURES=\(failures) puts a CAPTCHA in front of the sign-in after that many wrong answers; name a provider (turnstile, recaptcha, hcaptcha) with its keys, or a self-hosted catalog with CAPTCHA_CATALOG")
        }
        return captcha
    }

    /// The decision engine this configuration describes.
    public func makeEngine() throws(ConfigurationError) -> ChallengeFlowEngine {
        try ChallengeFlowEngine(flow: flow, policy: policy, keys: keys, random: SystemRandom(), stepUp: captchaStepUp)
    }

    /// The built-in steps that live in modules of their own, built on the public step API: `magic-link`,
    /// `sms-code` and `passkey`.
    static func moduleSteps(
        linkURL: MagicLinkURL? = nil, requireVerifiedEmail: Bool = true, requireVerifiedPhone: Bool = true,
        smsCountries: CallingCodes? = nil, passkeys: PasskeySettings? = nil
    ) -> [any ChallengeStep] {
        [
            MagicLinkStep(linkURL: linkURL, requireVerifiedEmail: requireVerifiedEmail),
            SMSCodeStep(requireVerifiedPhone: requireVerifiedPhone, allowedCountries: smsCountries),
            PasskeyStep(settings: passkeys),
        ]
    }

    /// A delay of 0 to 4000 ms from `variable`.
    private static func milliseconds(
        _ variable: String, in environment: [String: String], default value: Int
    ) throws(ConfigurationError) -> Duration {
        let milliseconds = try integer(variable, in: environment, default: value)
        guard (0...4000).contains(milliseconds) else {
            throw .invalid(variable: variable, value: String(milliseconds), expected: "a whole number of milliseconds from 0 to 4000")
        }
        return .milliseconds(milliseconds)
    }

    /// `SMS_DELIVERY` (`sns` or `outbox`), read only when the flow texts codes; by default it follows
    /// `CODE_DELIVERY`: the outbox for the outbox, SNS for SES.
    private static func smsDelivery(
        in environment: [String: String], email: Delivery, needed: Bool
    ) throws(ConfigurationError) -> SMSDeliveryChoice? {
        guard needed else { return nil }
        let value = EnvironmentReader(environment).value
        let choice = value("SMS_DELIVERY")
        switch (choice, email) {
        case (nil, .outbox(let path)), ("outbox", .outbox(let path)):
            return .outbox(path: path)
        case ("outbox", .ses):
            return .outbox(path: value("OUTBOX_PATH") ?? defaultOutboxPath)
        case (nil, .ses), ("sns", _):
            do {
                return .sns(try SNSConfiguration(environment: environment))
            } catch {
                throw .setting(SettingError(variable: error.variable, problem: "\(error.problem) (SMS_DELIVERY=sns)"))
            }
        case (let other?, _):
            throw .invalid(variable: "SMS_DELIVERY", value: other, expected: "\"sns\" or \"outbox\"")
        }
    }

    private static func boolean(_ variable: String, in environment: [String: String], default value: Bool) throws(ConfigurationError) -> Bool {
        switch EnvironmentReader(environment).value(variable) {
        case nil: return value
        case "true": return true
        case "false": return false
        case let text?: throw .invalid(variable: variable, value: text, expected: "\"true\" or \"false\"")
        }
    }

    private static func integer(_ variable: String, in environment: [String: String], default value: Int) throws(ConfigurationError) -> Int {
        guard let text = EnvironmentReader(environment).value(variable) else { return value }
        guard let number = Int(text) else { throw .invalid(variable: variable, value: text, expected: "a whole number") }
        return number
    }
}

/// Reads CAPTCHA images and answers from a JSON file: `[{"imageURL": "https://…", "answer": "w7xq"}, …]`.
public enum CaptchaCatalog {
    /// The entries of the catalog `CAPTCHA_CATALOG` names, when the CAPTCHA is self-hosted (`CAPTCHA_PROVIDER` unset
    /// or `catalog`); none otherwise. The composition root reads it once, at start-up.
    public static func read(from environment: [String: String]) throws(ConfigurationError) -> [CaptchaEntry] {
        let reader = EnvironmentReader(environment)
        guard reader.value("CAPTCHA_PROVIDER") ?? "catalog" == "catalog", let path = reader.value("CAPTCHA_CATALOG") else {
            return []
        }
        return try load(path: path)
    }

    public static func load(path: String) throws(ConfigurationError) -> [CaptchaEntry] {
        func invalid(_ reason: String) -> ConfigurationError {
            .invalid(variable: "CAPTCHA_CATALOG", value: path, expected: "a readable JSON catalog (\(reason))")
        }
        let elements: [JSONValue]
        do {
            elements = try LocalFile.nonEmptyJSONArray(at: path)
        } catch {
            throw invalid(error.reason)
        }
        var entries: [CaptchaEntry] = []
        for (position, element) in elements.enumerated() {
            guard let imageURL = element.objectValue?["imageURL"]?.stringValue,
                  let answer = element.objectValue?["answer"]?.stringValue, !answer.isEmpty
            else { throw invalid("entry \(position) needs string fields imageURL and answer") }
            let spelledAnswer = CaptchaStep.normalize(answer)
            guard !CaptchaStep.normalize(imageURL).containsText(spelledAnswer) else {
                throw invalid("the URL of entry \(position) contains its own answer, so a bot can read it off; give images opaque names")
            }
            entries.append(CaptchaEntry(imageURL: imageURL, answer: answer))
        }
        return entries
    }
}

extension TriggerConfiguration {
    /// The limits across sign-ins over `store`, or else the configured store; nil when there is neither.
    func makeLimiter(store given: (any StateStore)?) throws(ConfigurationError) -> SignInLimiter? {
        let store = if let given { given } else { try makeStateStore() }
        return store.map { SignInLimiter(limits: limits, store: $0, recordKey: keys.recordKey) }
    }

    /// A store of the configured kind (`STATE_STORE`), for the triggers and the passkey API of one process to share;
    /// nil when none is configured.
    public func makeStateStore() throws(ConfigurationError) -> (any StateStore)? {
        do {
            return try stateStore.makeStore()
        } catch {
            throw .invalid(variable: "STATE_ENDPOINT", value: "", expected: "a usable endpoint: \(error)")
        }
    }

    /// The secret that names each user's records in the state store: the limits', the passkey step's and the
    /// passkey registration API's.
    package var recordKey: [UInt8] { keys.recordKey }

    /// The deliveries this configuration names, each message sent by its channel's.
    func makeDelivery(clock: @escaping @Sendable () -> Int64) throws(ConfigurationError) -> any CodeDelivery {
        let email: any CodeDelivery
        switch delivery {
        case .outbox(let path):
            email = OutboxDelivery(path: path, clock: clock)
        case .ses(let configuration):
            do {
                email = try SESCodeDelivery(configuration: configuration)
            } catch {
                throw .setting(SettingError(variable: "SES_ENDPOINT", problem: "cannot be used: \(error)"))
            }
        }
        let sms: (any CodeDelivery)?
        switch smsDelivery {
        case nil:
            sms = nil
        case .outbox(let path):
            sms = if case .outbox(path) = delivery { email } else { OutboxDelivery(path: path, clock: clock) }
        case .sns(let configuration):
            do {
                sms = try SNSCodeDelivery(configuration: configuration)
            } catch {
                throw .setting(SettingError(variable: "SNS_ENDPOINT", problem: "cannot be used: \(error)"))
            }
        }
        return ChannelDeliveries(email: email, sms: sms)
    }
}
