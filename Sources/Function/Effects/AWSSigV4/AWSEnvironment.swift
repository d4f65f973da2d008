/// The region and credentials an AWS client reads from the environment, as Lambda sets them.
public struct AWSEnvironment: Sendable, Equatable {
    public let region: String
    public let credentials: AWSCredentials

    /// Reads `AWS_REGION` (or else `AWS_DEFAULT_REGION`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and the
    /// optional `AWS_SESSION_TOKEN`; the first problem found is thrown, naming its variable.
    public init(_ environment: [String: String]) throws(AWSEnvironmentError) {
        guard let region = Self.value("AWS_REGION", in: environment) ?? Self.value("AWS_DEFAULT_REGION", in: environment) else {
            throw AWSEnvironmentError(variable: "AWS_REGION", problem: "is not set (Lambda sets it; set it to run elsewhere)")
        }
        guard Self.isRegionName(region) else {
            throw AWSEnvironmentError(variable: "AWS_REGION", problem: "is \"\(region)\", not a region name such as eu-west-1")
        }
        self.region = region
        credentials = try AWSCredentials(environment: environment)
    }

    /// True for text shaped like a Region name: lower-case letters, digits and hyphens.
    public static func isRegionName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// The variable's value; nil when it is unset or empty.
    static func value(_ variable: String, in environment: [String: String]) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// An AWS environment variable is missing or malformed. Names the variable, never a secret's value.
public struct AWSEnvironmentError: Error, Sendable, Equatable, CustomStringConvertible {
    public let variable: String
    public let problem: String

    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "\(variable) \(problem)" }
}
