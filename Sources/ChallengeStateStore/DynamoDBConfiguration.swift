#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import AWSSigV4

/// Everything ``DynamoDBStateStore`` needs.
public struct DynamoDBConfiguration: Sendable, Equatable {
    /// The region of the table, and of the signature's scope.
    public var region: String
    /// The keys that sign each request; Lambda passes its role's temporary ones in the environment.
    public var credentials: AWSCredentials
    /// A table with partition key `pk` (string) and, to have DynamoDB delete expired records, TTL on `expiresAt`.
    public var tableName: String
    public var endpoint: DynamoDBEndpoint
    /// How long one read or write may take, connecting included.
    public var timeBudget: Duration
    /// The CA bundle for HTTPS; nil uses the one libcurl was built with.
    public var caFile: String?

    /// One second: enough for DynamoDB's single-digit milliseconds plus a new TLS connection, short of Cognito's 5 s.
    public static let defaultTimeBudget = Duration.milliseconds(1000)
    /// Where CA bundles live: Amazon Linux 2023 (Lambda's `provided.al2023`), then Debian and Ubuntu.
    public static let knownCAFiles = ["/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/certs/ca-certificates.crt"]

    /// Settings as given, without checks; ``StateStoreConfiguration/init(environment:)`` checks what it reads.
    /// - Parameter endpoint: nil for the region's endpoint.
    public init(
        region: String, credentials: AWSCredentials, tableName: String, endpoint: DynamoDBEndpoint? = nil,
        timeBudget: Duration = defaultTimeBudget, caFile: String? = DynamoDBConfiguration.installedCAFile()
    ) {
        self.region = region
        self.credentials = credentials
        self.tableName = tableName
        self.endpoint = endpoint ?? .regional(region)
        self.timeBudget = timeBudget
        self.caFile = caFile
    }

    /// The first readable file of ``knownCAFiles``, or nil.
    public static func installedCAFile() -> String? {
        knownCAFiles.first { access($0, R_OK) == 0 }
    }
}
