import CurlHTTP
import Platform

/// One AWS service endpoint as this package calls it: requests signed with Signature Version 4, sent over one
/// kept-alive libcurl connection, each ending, answered or not, within a time budget. SES, SNS, SSM and DynamoDB
/// are thin callers that describe only their operations and read their own answers.
///
/// Calls from several threads take turns on the connection; each call's budget starts when its turn comes.
public final class AWSServiceClient: Sendable {
    /// Where requests go.
    public let endpoint: AWSEndpoint
    private let signer: SigV4Signer
    private let session: PosixLock<CurlSession>
    private let wallClock: @Sendable () -> Int64

    /// - Parameters:
    ///   - service: the signing name, such as `ses` or `dynamodb`.
    ///   - caFile: the CA bundle for HTTPS; nil uses the one libcurl was built to find.
    ///   - clock: Unix seconds for the signature's date.
    public init(
        service: String, region: String, credentials: AWSCredentials, endpoint: AWSEndpoint, caFile: String?,
        clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds
    ) throws(CurlError) {
        self.endpoint = endpoint
        signer = SigV4Signer(credentials: credentials, region: region, service: service)
        session = PosixLock(try CurlSession(caFile: caFile))
        wallClock = clock
    }

    /// The signed `POST` of `body` to `path` with `headers`, timed out at `budget`.
    public func signedPost(
        path: String = "/", headers: [SignableRequest.Header], body: [UInt8], at date: SigningDate,
        connectTimeout: Duration, budget: Duration
    ) -> HTTPRequest {
        let signed = signer.sign(
            SignableRequest(method: "POST", host: endpoint.host, path: path, headers: headers, body: body), at: date)
        return HTTPRequest(
            method: .post, url: endpoint.baseURL + path, headers: signed.headers.map { HTTPHeader($0.name, $0.value) },
            body: body, connectTimeout: connectTimeout, totalTimeout: budget)
    }

    /// Signs and sends a `POST` so that it ends within `budget` (connecting within `connectTimeout`); an answer that
    /// `isRetryable` accepts is sent once more after a short random pause, while enough of the budget remains.
    public func post(
        path: String = "/", headers: [SignableRequest.Header], body: [UInt8], budget: Duration, connectTimeout: Duration,
        isRetryable: (HTTPResponse) -> Bool = { _ in false }
    ) -> BudgetedOutcome {
        session.withLock { session in
            let request = signedPost(
                path: path, headers: headers, body: body, at: SigningDate(secondsSince1970: wallClock()),
                connectTimeout: connectTimeout, budget: budget)
            return session.perform(request, within: budget, connectTimeout: connectTimeout, isRetryable: isRetryable)
        }
    }
}
