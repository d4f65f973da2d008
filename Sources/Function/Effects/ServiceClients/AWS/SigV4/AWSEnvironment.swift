import Basics

/// The region and credentials an AWS client reads from the environment, as Lambda sets them.
public struct AWSEnvironment: Sendable, Equatable {
    public let region: String
    public let credentials: AWSCredentials

    /// Reads `AWS_REGION` (or else `AWS_DEFAULT_REGION`), `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and the
    /// optional `AWS_SESSION_TOKEN`; the first problem found is thrown, naming its variable.
    public init(_ environment: [String: String]) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        guard let region = reader.value("AWS_REGION") ?? reader.value("AWS_DEFAULT_REGION") else {
            throw SettingError(variable: "AWS_REGION", problem: "is not set (Lambda sets it; set it to run elsewhere)")
        }
        guard Self.isRegionName(region) else {
            throw SettingError(variable: "AWS_REGION", problem: "is \"\(region)\", not a region name such as eu-west-1")
        }
        self.region = region
        credentials = try AWSCredentials(environment: environment)
    }

    /// True for text shaped like a Region name: lower-case letters, digits and hyphens.
    public static func isRegionName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }
}
