import Basics
import CurlHTTP

/// Everything ``SNSCodeDelivery`` needs, read once from the environment at start-up.
public struct SNSConfiguration: Sendable, Equatable {
    /// The Region whose SNS sends the messages, and the signature's Region.
    public var region: String
    public var credentials: AWSCredentials
    /// SNS's regional endpoint, or a local server (`SNS_ENDPOINT`).
    public var endpoint: AWSEndpoint
    /// The alphanumeric sender id shown instead of a number where the destination country allows it.
    public var senderID: String?
    /// The message around the code (`SMS_TEXT_TEMPLATE`).
    public var text: SMSText
    /// How long one delivery may take in all, retry included: it must end well inside Cognito's 5-second limit.
    public var timeBudget: Duration
    /// How long to wait for the TCP and TLS connection.
    public var connectTimeout: Duration
    /// The CA bundle for HTTPS; nil uses the one libcurl was built with.
    public var caFile: String?

    public static let defaultTimeBudget = Duration.milliseconds(defaultTimeBudgetMilliseconds)
    public static let defaultConnectTimeout = Duration.milliseconds(1000)
    private static let defaultTimeBudgetMilliseconds = 3000
    /// `SMS_TIMEOUT_MS` accepts this range: Cognito abandons a trigger after 5 s, and Create has other work.
    private static let timeBudgetRange = 100...4500

    public init(
        region: String, credentials: AWSCredentials, endpoint: AWSEndpoint? = nil, senderID: String? = nil,
        text: SMSText = .defaults, timeBudget: Duration = defaultTimeBudget,
        connectTimeout: Duration = defaultConnectTimeout, caFile: String? = CABundle.installed()
    ) {
        self.region = region
        self.credentials = credentials
        self.endpoint = endpoint ?? .regional("sns", region)
        self.senderID = senderID
        self.text = text
        self.timeBudget = timeBudget
        self.connectTimeout = connectTimeout
        self.caFile = caFile
    }

    /// Reads `SNS_ENDPOINT`, `SMS_SENDER_ID`, `SMS_TEXT_TEMPLATE`, `SMS_TIMEOUT_MS` and the standard AWS variables;
    /// the first problem found is thrown, naming its variable (never a secret's value).
    public init(environment: [String: String]) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        let aws = try AWSEnvironment(environment)
        let endpoint = try AWSEndpoint("SNS_ENDPOINT", in: environment, otherwise: .regional("sns", aws.region))
        let senderID = reader.value("SMS_SENDER_ID")
        if let senderID, !Self.isSenderID(senderID) {
            throw SettingError(
                variable: "SMS_SENDER_ID", problem: "is \"\(senderID)\"; expected 1 to 11 ASCII letters and digits, at least one a letter")
        }
        var text = SMSText.defaults
        if let template = reader.value("SMS_TEXT_TEMPLATE") {
            text = try SMSText(template: template)
        }
        let budget = try reader.integer(
            "SMS_TIMEOUT_MS", default: Self.defaultTimeBudgetMilliseconds, in: Self.timeBudgetRange, unit: "milliseconds")
        self.init(
            region: aws.region, credentials: aws.credentials, endpoint: endpoint, senderID: senderID, text: text,
            timeBudget: .milliseconds(budget), connectTimeout: min(Self.defaultConnectTimeout, .milliseconds(budget)))
    }

    /// SNS's rule for alphanumeric sender ids.
    private static func isSenderID(_ text: String) -> Bool {
        func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
        return (1...11).contains(text.utf8.count) && text.utf8.contains(where: isLetter)
            && text.utf8.allSatisfy { isLetter($0) || (0x30...0x39).contains($0) }
    }
}
