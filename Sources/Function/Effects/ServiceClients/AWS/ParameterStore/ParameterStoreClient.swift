import Basics
import CurlHTTP
import LosslessJSON

/// Reads parameters from AWS Systems Manager Parameter Store (`GetParameter`, JSON 1.1 protocol) over one libcurl
/// connection, each read ending, answered or failed, within a time budget (1500 ms by default).
///
/// Meant for start-up: a function reads its secrets once, at init, rather than carrying them in plain-text
/// environment variables. Not thread-safe: one owner at a time.
public final class ParameterStoreClient {
    /// The variable that points the client at another endpoint (a local server) than the regional one.
    public static let endpointVariable = "SSM_ENDPOINT"
    public static let defaultTimeBudget = Duration.milliseconds(1500)
    /// The longest wait for the TCP and TLS connection, when the budget is longer.
    static let maximumConnectTimeout = Duration.milliseconds(1000)

    public let region: String
    public let endpoint: AWSEndpoint
    /// How long one read may take in all.
    public let timeBudget: Duration
    private let client: AWSServiceClient
    static let headers = [
        SignableRequest.Header("Content-Type", "application/x-amz-json-1.1"), .init("X-Amz-Target", "AmazonSSM.GetParameter"),
    ]

    /// - Parameters:
    ///   - endpoint: nil for `https://ssm.<region>.amazonaws.com`.
    ///   - caFile: the CA bundle for HTTPS; nil uses the one libcurl was built to find.
    ///   - clock: Unix seconds for the signature's date.
    public init(
        region: String, credentials: AWSCredentials, endpoint: AWSEndpoint? = nil, caFile: String? = CABundle.installed(),
        timeBudget: Duration = defaultTimeBudget, clock: @escaping @Sendable () -> Int64 = SigningDate.systemSeconds
    ) throws(CurlError) {
        self.region = region
        self.endpoint = endpoint ?? .regional("ssm", region)
        self.timeBudget = timeBudget
        client = try AWSServiceClient(
            service: "ssm", region: region, credentials: credentials, endpoint: self.endpoint, caFile: caFile, clock: clock)
    }

    /// The endpoint ``endpointVariable`` names in `environment`, or else the region's.
    public static func endpoint(in environment: [String: String], region: String) throws(SettingError) -> AWSEndpoint {
        try AWSEndpoint(endpointVariable, in: environment, otherwise: .regional("ssm", region))
    }

    /// The decrypted value of the `SecureString` parameter `name` (a name such as `/app/secret`, or an ARN).
    public func secureString(named name: String) throws(ParameterStoreError) -> String {
        switch client.post(headers: Self.headers, body: Self.body(forParameter: name), budget: timeBudget, connectTimeout: connectTimeout) {
        case .succeeded(let response, _):
            return try GetParameterAnswer(parameter: name, body: response.body).secureValue
        case .refused(let response, _):
            throw ParameterStoreError(parameter: name, failure: response)
        case .timedOut:
            throw .timedOut(parameter: name, budget: timeBudget)
        case .failed(let error, _):
            throw .unreachable(parameter: name, endpoint: endpoint.baseURL, error)
        }
    }

    /// The signed `GetParameter` request for `name`, with decryption, and the whole budget as its timeout.
    public func request(forParameter name: String, at date: SigningDate) -> HTTPRequest {
        client.signedPost(
            headers: Self.headers, body: Self.body(forParameter: name), at: date, connectTimeout: connectTimeout,
            budget: timeBudget)
    }

    private var connectTimeout: Duration { min(Self.maximumConnectTimeout, timeBudget) }

    private static func body(forParameter name: String) -> [UInt8] {
        JSONValue.object(JSONObject([("Name", .string(name)), ("WithDecryption", .bool(true))])).serialized()
    }
}
