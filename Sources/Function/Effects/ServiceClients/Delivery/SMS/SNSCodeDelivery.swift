import ChallengeFlows
import CurlHTTP

/// Sends codes as transactional SMS with the SNS `Publish` API (Query protocol) over one kept-alive libcurl
/// connection.
///
/// Each delivery ends, sent or failed, within the configured time budget (3 s by default): a throttled answer
/// (never a 5xx, after which the message may have gone out) is retried once, after a short random pause, only if enough of the budget remains for another attempt.
/// A phone number that is not E.164 is refused without a request.
public final class SNSCodeDelivery: CodeDelivery {
    /// Where and how messages are sent.
    public let configuration: SNSConfiguration
    private let client: AWSServiceClient

    static let apiVersion = "2010-03-31"
    static let headers = [SignableRequest.Header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")]

    /// - Parameter clock: Unix seconds for the signature's date.
    public init(configuration: SNSConfiguration, clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds) throws(CurlError) {
        self.configuration = configuration
        client = try AWSServiceClient(
            service: "sns", region: configuration.region, credentials: configuration.credentials,
            endpoint: configuration.endpoint, caFile: configuration.caFile, clock: clock)
    }

    /// Sends the message's code to its recipient, which must be a phone number in E.164 form.
    public func deliver(_ message: CodeMessage) throws {
        _ = try send(code: message.code, to: message.recipient, validForSeconds: message.validForSeconds)
    }

    /// Sends the code to the phone number and returns what SNS acknowledged.
    public func send(code: String, to phoneNumber: String, validForSeconds: Int) throws(SNSDeliveryError) -> SNSReceipt {
        guard PhoneNumberFormat.isE164(phoneNumber) else { throw .invalidPhoneNumber(length: phoneNumber.count) }
        let outcome = client.post(
            headers: Self.headers, body: body(code: code, to: phoneNumber, validForSeconds: validForSeconds),
            budget: configuration.timeBudget, connectTimeout: configuration.connectTimeout
        ) { SNSErrorResponse($0, masking: code).isRetryable }
        switch outcome {
        case .succeeded(let response, let attempts):
            return SNSReceipt(messageID: XMLText.firstElement("MessageId", in: response.body), attempts: attempts)
        case .refused(let response, let attempts):
            throw .rejected(SNSErrorResponse(response, masking: code), attempts: attempts)
        case .timedOut(let attempts):
            throw .timedOut(budget: configuration.timeBudget, attempts: attempts)
        case .failed(let error, let attempts):
            throw .unreachable(endpoint: configuration.endpoint.baseURL, error, attempts: attempts)
        }
    }

    /// The signed `Publish` request for one code, with the whole budget as its timeout.
    public func request(code: String, to phoneNumber: String, validForSeconds: Int, at date: SigningDate) -> HTTPRequest {
        client.signedPost(
            headers: Self.headers, body: body(code: code, to: phoneNumber, validForSeconds: validForSeconds), at: date,
            connectTimeout: configuration.connectTimeout, budget: configuration.timeBudget)
    }

    /// `Publish`'s form for one code: a transactional SMS, with the sender id when one is configured.
    private func body(code: String, to phoneNumber: String, validForSeconds: Int) -> [UInt8] {
        var fields: [(name: String, value: String)] = [
            ("Action", "Publish"), ("Version", Self.apiVersion), ("PhoneNumber", phoneNumber),
            ("Message", configuration.text.render(code: code, validForSeconds: validForSeconds)),
        ]
        var attributes = [("AWS.SNS.SMS.SMSType", "Transactional")]
        if let senderID = configuration.senderID {
            attributes.append(("AWS.SNS.SMS.SenderID", senderID))
        }
        for (index, (name, value)) in attributes.enumerated() {
            let entry = "MessageAttributes.entry.\(index + 1)."
            fields += [(entry + "Name", name), (entry + "Value.DataType", "String"), (entry + "Value.StringValue", value)]
        }
        return QueryForm.encode(fields)
    }
}

/// What SNS acknowledged for one sent SMS.
public struct SNSReceipt: Sendable, Equatable {
    /// SNS's id for the message, when its answer carried one.
    public let messageID: String?
    /// 1, or 2 when the first attempt was throttled or failed on SNS's side.
    public let attempts: Int
}
