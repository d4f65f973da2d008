#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Basics
import CurlHTTP

/// Everything ``SESCodeDelivery`` needs, read once from the environment at start-up.
public struct SESConfiguration: Sendable, Equatable {
    public var region: String
    public var credentials: AWSCredentials
    /// The sender, `address@domain` or `Name <address@domain>`; SES must have it (or its domain) verified.
    public var fromAddress: String
    public var configurationSetName: String?
    public var endpoint: AWSEndpoint
    public var templates: CodeEmailTemplates
    /// The email of a sign-in link (`magic-link`): ``CodeEmailTemplates/linkDefaults``.
    public var linkTemplates: CodeEmailTemplates = .linkDefaults
    /// How long one delivery may take in all, retry included: it must end well inside Cognito's 5-second limit.
    public var timeBudget: Duration
    /// How long to wait for the TCP and TLS connection.
    public var connectTimeout: Duration
    /// The CA bundle for HTTPS; nil uses the one libcurl was built with.
    public var caFile: String?

    public static let defaultTimeBudget = Duration.milliseconds(defaultTimeBudgetMilliseconds)
    public static let defaultConnectTimeout = Duration.milliseconds(defaultConnectTimeoutMilliseconds)
    private static let defaultTimeBudgetMilliseconds = 3000
    private static let defaultConnectTimeoutMilliseconds = 1000
    /// The longest budget `SES_TIMEOUT_MS` accepts: Cognito abandons a trigger after 5 s, and Create has other work.
    private static let maximumTimeBudgetMilliseconds = 4500

    public init(
        region: String, credentials: AWSCredentials, fromAddress: String, configurationSetName: String? = nil,
        endpoint: AWSEndpoint? = nil, templates: CodeEmailTemplates = .defaults,
        timeBudget: Duration = defaultTimeBudget, connectTimeout: Duration = defaultConnectTimeout,
        caFile: String? = CABundle.installed()
    ) {
        self.region = region
        self.credentials = credentials
        self.fromAddress = fromAddress
        self.configurationSetName = configurationSetName
        self.endpoint = endpoint ?? .regional("email", region)
        self.templates = templates
        self.timeBudget = timeBudget
        self.connectTimeout = connectTimeout
        self.caFile = caFile
    }

    /// Reads the `SES_*`, `EMAIL_*` and standard AWS variables; the first problem found is thrown, naming its
    /// variable (never a secret's value).
    public init(environment: [String: String]) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        let value = reader.value
        // SES may be used in another Region than the function's own (SES_REGION, e.g. where the identity is verified).
        let region = value("SES_REGION")
        let aws = try AWSEnvironment(environment)
        let endpoint = try AWSEndpoint("SES_ENDPOINT", in: environment, otherwise: .regional("email", region ?? aws.region))
        if let region, !AWSEnvironment.isRegionName(region) {
            throw SettingError(variable: "SES_REGION", problem: "is \"\(region)\", not a region name such as eu-west-1")
        }
        let from = try reader.required("SES_FROM_ADDRESS", purpose: "name the verified sender of code emails")
        guard from.containsText("@"), !from.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw SettingError(variable: "SES_FROM_ADDRESS", problem: "is \"\(from)\", not an email address")
        }
        let defaults = CodeEmailTemplates.defaults
        let templates = CodeEmailTemplates(
            subject: value("EMAIL_SUBJECT") ?? defaults.subject,
            text: value("EMAIL_TEXT_TEMPLATE") ?? defaults.text,
            html: value("EMAIL_HTML_TEMPLATE") ?? defaults.html)
        for (variable, template) in [("EMAIL_TEXT_TEMPLATE", templates.text), ("EMAIL_HTML_TEMPLATE", templates.html)]
        where !template.containsText("{code}") {
            throw SettingError(variable: variable, problem: "has no {code} placeholder, so the email would not carry the code")
        }
        let budget = try reader.integer(
            "SES_TIMEOUT_MS", default: Self.defaultTimeBudgetMilliseconds, in: 100...Self.maximumTimeBudgetMilliseconds,
            unit: "milliseconds")
        let connectTimeout = try reader.integer(
            "SES_CONNECT_TIMEOUT_MS", default: min(Self.defaultConnectTimeoutMilliseconds, budget), in: 50...budget,
            unit: "milliseconds")
        var caFile = CABundle.installed()
        if let path = value("SES_CA_FILE") {
            guard access(path, R_OK) == 0 else {
                throw SettingError(variable: "SES_CA_FILE", problem: "is \"\(path)\", which is not a readable file")
            }
            caFile = path
        }
        self.init(
            region: region ?? aws.region, credentials: aws.credentials, fromAddress: from, configurationSetName: value("SES_CONFIGURATION_SET"),
            endpoint: endpoint, templates: templates, timeBudget: .milliseconds(budget), connectTimeout: .milliseconds(connectTimeout),
            caFile: caFile)
    }
}
