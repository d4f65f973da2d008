#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Basics

/// Where the Runtime API is and how to log, as Lambda's environment gives them.
public struct RuntimeConfiguration: Sendable {
    /// `host:port` of the Runtime API.
    public var runtimeAPI: String
    public var logger: LambdaLogger

    public init(runtimeAPI: String, logger: LambdaLogger = LambdaLogger()) {
        self.runtimeAPI = runtimeAPI
        self.logger = logger
    }

    /// Reads `AWS_LAMBDA_RUNTIME_API`, `AWS_LAMBDA_LOG_FORMAT` and `AWS_LAMBDA_LOG_LEVEL` (default `INFO`).
    public static func fromEnvironment() throws(SettingError) -> RuntimeConfiguration {
        guard let runtimeAPI = environment("AWS_LAMBDA_RUNTIME_API"), !runtimeAPI.isEmpty else {
            throw SettingError(
                variable: "AWS_LAMBDA_RUNTIME_API",
                problem: "is not set: run this executable inside Lambda, or point the variable at a local Runtime API "
                    + "(host:port)")
        }
        let levelName = environment("AWS_LAMBDA_LOG_LEVEL")
        let level = levelName.map { LogLevel(name: $0) } ?? .info
        guard let level else {
            throw SettingError(
                variable: "AWS_LAMBDA_LOG_LEVEL",
                problem: "is \"\(levelName ?? "")\", not a level: use TRACE, DEBUG, INFO, WARN, ERROR or FATAL")
        }
        let format = LogFormat(name: environment("AWS_LAMBDA_LOG_FORMAT"))
        return RuntimeConfiguration(runtimeAPI: runtimeAPI, logger: LambdaLogger(format: format, minimumLevel: level))
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
