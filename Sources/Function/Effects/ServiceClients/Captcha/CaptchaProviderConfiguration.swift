import Basics
import CurlHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Basics
import Darwin
#endif

/// Everything ``SiteverifyClient`` needs to check tokens of one site, read once from the environment at start-up.
public struct CaptchaProviderConfiguration: Sendable, Equatable {
    /// The service that issued the tokens.
    public var provider: CaptchaProvider
    /// The public key the widget is rendered with; sent to hCaptcha, which then refuses tokens of other sites.
    public var siteKey: String
    /// The secret key that authenticates `siteverify` calls.
    public var secret: CaptchaSecret
    /// The hostnames, in lower case, of the pages allowed to show the widget; the provider's `hostname` must be one.
    public var allowedHostnames: [String]
    /// The action the widget is rendered with; when set, the provider's `action` must equal it.
    public var action: String?
    /// The lowest reCAPTCHA v3 score (0.0 is a bot, 1.0 a person) that passes; hCaptcha's Enterprise score, which
    /// measures risk instead, is not compared with it.
    public var minimumScore: Double
    /// The `siteverify` URL: the provider's own, or a stand-in's.
    public var endpoint: String
    /// How long one verification may take in all: Verify Auth Challenge must answer within Cognito's 5 seconds.
    public var timeBudget: Duration
    /// How long to wait for the TCP and TLS connection, at most ``timeBudget``.
    public var connectTimeout: Duration
    /// The CA bundle for HTTPS; nil uses the one libcurl was built with.
    public var caFile: String?

    public static let defaultMinimumScore = 0.5
    public static let defaultTimeBudget = Duration.milliseconds(defaultTimeBudgetMilliseconds)
    public static let defaultConnectTimeout = Duration.milliseconds(1000)
    private static let defaultTimeBudgetMilliseconds = 2000
    private static let timeBudgetRange = 100...4000

    /// A configuration from its values; hostnames are lower-cased, the endpoint defaults to the provider's and the
    /// connect timeout is cut to the time budget.
    public init(
        provider: CaptchaProvider, siteKey: String, secret: CaptchaSecret, allowedHostnames: [String], action: String? = nil,
        minimumScore: Double = defaultMinimumScore, endpoint: String? = nil, timeBudget: Duration = defaultTimeBudget,
        connectTimeout: Duration = defaultConnectTimeout, caFile: String? = CABundle.installed()
    ) {
        self.provider = provider
        self.siteKey = siteKey
        self.secret = secret
        self.allowedHostnames = allowedHostnames.map { $0.lowercased() }
        self.action = action
        self.minimumScore = minimumScore
        self.endpoint = endpoint ?? provider.defaultEndpoint
        self.timeBudget = timeBudget
        self.connectTimeout = min(connectTimeout, timeBudget)
        self.caFile = caFile
    }

    /// Reads the `CAPTCHA_*` variables and `RECAPTCHA_MIN_SCORE`; the first problem found is thrown, naming its
    /// variable. An empty variable counts as unset. Should any quoted value hold the secret, it shows as `[secret]`.
    public init(environment: [String: String]) throws(SettingError) {
        try self.init(
            environment: environment, secret: EnvironmentReader(environment).value("CAPTCHA_SECRET"),
            secretVariable: "CAPTCHA_SECRET")
    }

    /// Reads the `CAPTCHA_*` variables and `RECAPTCHA_MIN_SCORE` like ``init(environment:)``, except the secret key,
    /// which the caller has read already — e.g. from the SSM Parameter Store `SecureString` that
    /// `CAPTCHA_SECRET_PARAMETER` names — and which `CAPTCHA_SECRET` then no longer gives. A problem with the secret
    /// names `secretVariable`, the variable it came from; should any quoted value hold it, it shows as `[secret]`.
    public init(environment: [String: String], secret: String?, secretVariable: String) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        do {
            self = try Self.read(reader, secret: secret.flatMap { $0.isEmpty ? nil : $0 }, secretVariable: secretVariable)
        } catch {
            guard let secret, !secret.isEmpty else { throw error }
            throw SettingError(variable: error.variable, problem: error.problem.replacingText(secret, with: "[secret]"))
        }
    }

    private static func read(_ reader: EnvironmentReader, secret: String?, secretVariable: String) throws(SettingError) -> Self {
        let providerName = try reader.required("CAPTCHA_PROVIDER", purpose: "name the CAPTCHA service: turnstile, recaptcha or hcaptcha")
        guard let provider = CaptchaProvider(rawValue: providerName.lowercased()) else {
            throw SettingError(
                variable: "CAPTCHA_PROVIDER", problem: "is \"\(providerName)\"; expected turnstile, recaptcha or hcaptcha")
        }
        let siteKey = try reader.required("CAPTCHA_SITE_KEY", purpose: "give the widget's public site key")
        guard !siteKey.contains(where: EnvironmentReader.isUnprintable) else {
            throw SettingError(variable: "CAPTCHA_SITE_KEY", problem: "is \"\(siteKey)\", which holds spaces or control characters")
        }
        guard let secret else {
            throw SettingError(
                variable: "CAPTCHA_SECRET",
                problem: "is not set: give the secret key shared with the CAPTCHA service (in a deployment, set CAPTCHA_SECRET_PARAMETER to the SSM SecureString parameter that holds it instead)")
        }
        guard !secret.contains(where: EnvironmentReader.isUnprintable) else {
            throw SettingError(variable: secretVariable, problem: "holds spaces or control characters (its value is not shown)")
        }
        let hostnames = try reader.hostnames("CAPTCHA_ALLOWED_HOSTNAMES")
        let action = reader.value("CAPTCHA_ACTION")
        if let action {
            guard provider.reportsAction else {
                throw SettingError(
                    variable: "CAPTCHA_ACTION", problem: "is \"\(action)\", but \(provider.rawValue) reports no action to compare it with")
            }
            guard !action.contains(where: EnvironmentReader.isUnprintable) else {
                throw SettingError(variable: "CAPTCHA_ACTION", problem: "is \"\(action)\", which holds spaces or control characters")
            }
        }
        let minimumScore = try reader.fraction("RECAPTCHA_MIN_SCORE", default: Self.defaultMinimumScore)
        let endpoint = try reader.endpoint("CAPTCHA_ENDPOINT")
        let budget = try reader.integer(
            "CAPTCHA_TIMEOUT_MS", default: Self.defaultTimeBudgetMilliseconds, in: Self.timeBudgetRange, unit: "milliseconds")
        return Self(
            provider: provider, siteKey: siteKey, secret: CaptchaSecret(secret), allowedHostnames: hostnames, action: action,
            minimumScore: minimumScore, endpoint: endpoint, timeBudget: .milliseconds(budget))
    }

    /// What the Create Auth Challenge trigger hands to the client to render the widget: `provider`, `siteKey`, and
    /// `action` when one is configured. Nothing secret.
    public func publicParameters() -> [String: String] {
        var parameters = ["provider": provider.rawValue, "siteKey": siteKey]
        parameters["action"] = action
        return parameters
    }

}
