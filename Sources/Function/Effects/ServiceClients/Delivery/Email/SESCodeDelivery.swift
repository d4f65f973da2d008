import ChallengeFlows
import CurlHTTP
import LosslessJSON

/// Sends code emails with the SES v2 `SendEmail` API over one kept-alive libcurl connection.
///
/// Each delivery ends, sent or failed, within the configured time budget (3 s by default): a throttled answer
/// (never a 5xx, after which the message may have gone out) is retried once, after a short random pause, only if enough of the budget remains for another attempt.
public final class SESCodeDelivery: CodeDelivery {
    public let configuration: SESConfiguration
    private let client: AWSServiceClient
    static let path = "/v2/email/outbound-emails"
    static let headers = [SignableRequest.Header("Content-Type", "application/json")]

    /// - Parameter clock: Unix seconds for the signature's date.
    public init(configuration: SESConfiguration, clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds) throws(CurlError) {
        self.configuration = configuration
        client = try AWSServiceClient(
            service: "ses", region: configuration.region, credentials: configuration.credentials,
            endpoint: configuration.endpoint, caFile: configuration.caFile, clock: clock)
    }

    public func deliver(_ message: CodeMessage) throws {
        _ = try send(message)
    }

    /// Sends the message and returns what SES acknowledged.
    public func send(_ message: CodeMessage) throws(SESDeliveryError) -> SESReceipt {
        let outcome = client.post(
            path: Self.path, headers: Self.headers, body: body(for: message), budget: configuration.timeBudget,
            connectTimeout: configuration.connectTimeout
        ) { SESErrorResponse($0, masking: message.code).isRetryable }
        switch outcome {
        case .succeeded(let response, let attempts):
            let messageID = (try? JSONValue(parsing: response.body))?.objectValue?["MessageId"]?.stringValue
            return SESReceipt(messageID: messageID, attempts: attempts)
        case .refused(let response, let attempts):
            throw .rejected(SESErrorResponse(response, masking: message.code), attempts: attempts)
        case .timedOut(let attempts):
            throw .timedOut(budget: configuration.timeBudget, attempts: attempts)
        case .failed(let error, let attempts):
            throw .unreachable(endpoint: configuration.endpoint.baseURL, error, attempts: attempts)
        }
    }

    /// The signed `SendEmail` request for a message, with the whole budget as its timeout.
    public func request(for message: CodeMessage, at date: SigningDate) -> HTTPRequest {
        client.signedPost(
            path: Self.path, headers: Self.headers, body: body(for: message), at: date,
            connectTimeout: configuration.connectTimeout, budget: configuration.timeBudget)
    }

    /// `SendEmail`'s JSON for a message.
    private func body(for message: CodeMessage) -> [UInt8] {
        let email = (message.link == nil ? configuration.templates : configuration.linkTemplates).render(message)
        func content(_ text: String) -> JSONValue { ["Data": .string(text), "Charset": "UTF-8"] }
        var fields: [(String, JSONValue)] = [
            ("FromEmailAddress", .string(configuration.fromAddress)),
            ("Destination", ["ToAddresses": [.string(message.recipient)]]),
            ("Content", ["Simple": ["Subject": content(email.subject), "Body": ["Text": content(email.text), "Html": content(email.html)]]]),
        ]
        if let configurationSet = configuration.configurationSetName {
            fields.append(("ConfigurationSetName", .string(configurationSet)))
        }
        return JSONValue.object(JSONObject(fields)).serialized()
    }
}

/// What SES acknowledged for one sent email.
public struct SESReceipt: Sendable, Equatable {
    /// SES's id for the message, when its answer carried one.
    public let messageID: String?
    /// 1, or 2 when the first attempt was throttled or failed on SES's side.
    public let attempts: Int
}
