import Basics

/// An AWS access key pair, plus the session token that temporary credentials (such as Lambda's) carry.
///
/// Printing, dumping or interpolating credentials shows the access key id only: the secret and the token are redacted.
public struct AWSCredentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public let accessKeyID: String
    public let secretAccessKey: String
    /// Present for temporary credentials; signed requests then carry it in `X-Amz-Security-Token`.
    public let sessionToken: String?

    public init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
    }

    /// Reads `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and the optional `AWS_SESSION_TOKEN`.
    public init(environment: [String: String]) throws(SettingError) {
        let reader = EnvironmentReader(environment)
        func required(_ variable: String) throws(SettingError) -> String {
            guard let value = reader.value(variable) else { throw SettingError(variable: variable, problem: "is not set") }
            guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw SettingError(variable: variable, problem: "contains spaces or characters outside ASCII")
            }
            return value
        }
        let accessKeyID = try required("AWS_ACCESS_KEY_ID")
        let secretAccessKey = try required("AWS_SECRET_ACCESS_KEY")
        let token = reader.value("AWS_SESSION_TOKEN")
        self.init(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey, sessionToken: token)
    }

    public var description: String {
        "AWSCredentials(accessKeyID: \(accessKeyID), secretAccessKey: <redacted>, sessionToken: "
            + (sessionToken == nil ? "none)" : "<redacted>)")
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["accessKeyID": accessKeyID, "secretAccessKey": "<redacted>"], displayStyle: .struct)
    }
}
