import AWSSigV4
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
    public init(environment: [String: String]) throws(StateStoreConfigurationError) {
        func value(_ variable: String) -> String? {
            environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        switch value("STATE_STORE")?.lowercased() {
        case nil, "none":
            self.init(backend: .none)
            return
        case "memory":
            self.init(backend: .memory)
            return
        case "dynamodb":
            break
        case let other?:
            throw StateStoreConfigurationError(variable: "STATE_STORE", problem: "is \"\(other)\"; expected none, memory or dynamodb")
        }

        let aws: AWSEnvironment
        let endpoint: AWSEndpoint
        do {
            aws = try AWSEnvironment(environment)
            endpoint = try AWSEndpoint("STATE_ENDPOINT", in: environment, otherwise: .regional("dynamodb", aws.region))
        } catch {
            throw StateStoreConfigurationError(variable: error.variable, problem: error.problem)
        }
        guard let table = value("STATE_TABLE") else {
            throw StateStoreConfigurationError(variable: "STATE_TABLE", problem: "is not set: name the DynamoDB table of sign-in state")
        }
        guard (3...255).contains(table.utf8.count), table.utf8.allSatisfy(Self.isTableNameByte) else {
            throw StateStoreConfigurationError(
                variable: "STATE_TABLE", problem: "is \"\(table)\", not a table name (3 to 255 of A-Z a-z 0-9 _ - .)")
        }
        var budget = DynamoDBConfiguration.defaultTimeBudget
        if let text = value("STATE_TIMEOUT_MS") {
            guard let count = Int(text), Self.timeBudgetRange.contains(count) else {
                throw StateStoreConfigurationError(
                    variable: "STATE_TIMEOUT_MS",
                    problem: "is \"\(text)\"; expected whole milliseconds from \(Self.timeBudgetRange.lowerBound) "
                        + "to \(Self.timeBudgetRange.upperBound)")
            }
            budget = .milliseconds(count)
        }
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

/// A state store variable is missing or malformed.
public struct StateStoreConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The environment variable at fault, such as `STATE_TABLE`.
    public let variable: String
    /// What is wrong with it, as the rest of a sentence that starts with the variable's name.
    public let problem: String

    /// The error for `variable`; `problem` must not quote a secret.
    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    /// `State store configuration: STATE_TABLE is not set: ... .`
    public var description: String { "State store configuration: \(variable) \(problem)." }
}
