import AWSSigV4
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
    private let session: CurlSession
    private let signer: SigV4Signer
    private let wallClock: @Sendable () -> Int64

    static let apiVersion = "2010-03-31"

    /// - Parameter clock: Unix seconds for the signature's date.
    public init(configuration: SNSConfiguration, clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds) throws(CurlError) {
        self.configuration = configuration
        session = try CurlSession(caFile: configuration.caFile)
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region, service: "sns")
        wallClock = clock
    }

    /// Sends the message's code to its recipient, which must be a phone number in E.164 form.
    public func deliver(_ message: CodeMessage) throws {
        _ = try send(code: message.code, to: message.recipient, validForSeconds: message.validForSeconds)
    }

    /// Sends the code to the phone number and returns what SNS acknowledged.
    public func send(code: String, to phoneNumber: String, validForSeconds: Int) throws(SNSDeliveryError) -> SNSReceipt {
        guard PhoneNumberFormat.isE164(phoneNumber) else { throw .invalidPhoneNumber(phoneNumber) }
        let outcome = session.perform(
            request(code: code, to: phoneNumber, validForSeconds: validForSeconds, at: SigningDate(secondsSince1970: wallClock())),
            within: configuration.timeBudget, connectTimeout: configuration.connectTimeout
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
        let body = QueryForm.encode(fields)
        let contentType = "application/x-www-form-urlencoded; charset=utf-8"
        let signed = signer.sign(
            SignableRequest(
                method: "POST", host: configuration.endpoint.host, path: "/", headers: [.init("Content-Type", contentType)],
                body: body),
            at: date)
        return HTTPRequest(
            method: .post, url: configuration.endpoint.baseURL + "/",
            headers: signed.headers.map { HTTPHeader($0.name, $0.value) }, body: body,
            connectTimeout: configuration.connectTimeout, totalTimeout: configuration.timeBudget)
    }
}

/// What SNS acknowledged for one sent SMS.
public struct SNSReceipt: Sendable, Equatable {
    /// SNS's id for the message, when its answer carried one.
    public let messageID: String?
    /// 1, or 2 when the first attempt was throttled or failed on SNS's side.
    public let attempts: Int
}
