import Basics
import CurlHTTP

/// Which ``StateStore`` to use, read once from the environment at start-up.
public struct StateStoreConfiguration: Sendable, Equatable {
    /// Where records live.
    public enum Backend: Sendable, Equatable {
        /// No store: whatever needs one is off.
        case none
        /// A ``MemoryStateStore``: for tests and local runs; every Lambda instance would have its own.
        case memory
        /// A ``DynamoDBStateStore``.
        case dynamoDB(DynamoDBConfiguration)
    }

    /// The configured kind of store, with its settings.
    public var backend: Backend

    /// The shortest and longest `STATE_TIMEOUT_MS`: a trigger has 5 s in all, and sends email too.
    static let timeBudgetRange = 100...2000

    /// A configuration of the given store, without reading the environment.
    public init(backend: Backend) {
        self.backend = backend
    }

    /// Reads `STATE_STORE` (`none`, the default; `memory`; `dynamodb`) and, for DynamoDB, `STATE_TABLE` (required),
    /// `STATE_ENDPOINT`, `STATE_TIMEOUT_MS` (100 to 2000, default 1000), `AWS_REGION` (or `AWS_DEFAULT_REGION`),
    /// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`. The first problem found is thrown,
    /// naming its variable (never a secret's value).
    public init(environment: [String: String]) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        switch reader.value("STATE_STORE")?.lowercased() {
        case nil, "none":
            self.init(backend: .none)
            return
        case "memory":
            self.init(backend: .memory)
            return
        case "dynamodb":
            break
        case let other?:
            throw SettingError(variable: "STATE_STORE", problem: "is \"\(other)\"; expected none, memory or dynamodb")
        }

        let aws = try AWSEnvironment(environment)
        let endpoint = try AWSEndpoint("STATE_ENDPOINT", in: environment, otherwise: .regional("dynamodb", aws.region))
        let table = try reader.required("STATE_TABLE", purpose: "name the DynamoDB table of sign-in state")
        guard (3...255).contains(table.utf8.count), table.utf8.allSatisfy(Self.isTableNameByte) else {
            throw SettingError(
                variable: "STATE_TABLE", problem: "is \"\(table)\", not a table name (3 to 255 of A-Z a-z 0-9 _ - .)")
        }
        let budget = try reader.milliseconds(
            "STATE_TIMEOUT_MS", default: DynamoDBConfiguration.defaultTimeBudget, in: Self.timeBudgetRange)
        self.init(
            backend: .dynamoDB(
                DynamoDBConfiguration(
                    region: aws.region, credentials: aws.credentials, tableName: table, endpoint: endpoint, timeBudget: budget)))
    }

    /// A new store of the configured kind; nil for ``Backend/none``.
    public func makeStore() throws(CurlError) -> (any StateStore)? {
        switch backend {
        case .none: nil
        case .memory: MemoryStateStore()
        case .dynamoDB(let configuration): try DynamoDBStateStore(configuration: configuration)
        }
    }

    private static func isTableNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
