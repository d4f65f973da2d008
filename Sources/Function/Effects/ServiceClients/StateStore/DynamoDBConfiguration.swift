import CurlHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif


/// Everything ``DynamoDBStateStore`` needs.
public struct DynamoDBConfiguration: Sendable, Equatable {
    /// The region of the table, and of the signature's scope.
    public var region: String
    /// The keys that sign each request; Lambda passes its role's temporary ones in the environment.
    public var credentials: AWSCredentials
    /// A table with partition key `pk` (string) and, to have DynamoDB delete expired records, TTL on `expiresAt`.
    public var tableName: String
    public var endpoint: AWSEndpoint
    /// How long one read or write may take, connecting included.
    public var timeBudget: Duration
    /// The CA bundle for HTTPS; nil uses the one libcurl was built with.
    public var caFile: String?

    /// One second: enough for DynamoDB's single-digit milliseconds plus a new TLS connection, short of Cognito's 5 s.
    public static let defaultTimeBudget = Duration.milliseconds(1000)

    /// Settings as given, without checks; ``StateStoreConfiguration/init(environment:)`` checks what it reads.
    /// - Parameter endpoint: nil for the region's endpoint.
    public init(
        region: String, credentials: AWSCredentials, tableName: String, endpoint: AWSEndpoint? = nil,
        timeBudget: Duration = defaultTimeBudget, caFile: String? = CABundle.installed()
    ) {
        self.region = region
        self.credentials = credentials
        self.tableName = tableName
        self.endpoint = endpoint ?? .regional("dynamodb", region)
        self.timeBudget = timeBudget
        self.caFile = caFile
    }

}
