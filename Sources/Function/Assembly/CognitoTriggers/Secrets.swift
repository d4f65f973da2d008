import Basics
import ChallengeFlows
import ServiceClients

/// The function's secrets, from plain variables for local runs, or from SSM Parameter Store `SecureString` parameters
/// for a deployment, so that no secret is visible in the function's configuration.
///
/// Each secret is one of `NAME` (the value) or `NAME_PARAMETER` (a parameter name, optionally with a version selector
/// such as `/app/secret:3`, which is how `CODE_HASH_SECRET_PREVIOUS_PARAMETER` names the value before a rotation).
/// Reading parameters is network I/O: the composition root does it once, at start-up (``read(from:)``), and hands the
/// values to ``TriggerConfiguration``, which reads no network.
public struct Secrets: Sendable {
    /// The variables that may hold a secret, each also as `…_PARAMETER`.
    public static let variables = ["CODE_HASH_SECRET", "CODE_HASH_SECRET_PREVIOUS", "DECOY_MASK_SECRET", "CAPTCHA_SECRET"]

    private let values: [String: [UInt8]]
    private let sources: [String: String]

    /// The secrets of plain variables: a `…_PARAMETER` variable is refused, as reading it needs the network
    /// (``read(from:)``).
    public init(plain environment: [String: String]) throws(ConfigurationError) {
        let reader = EnvironmentReader(environment)
        var values: [String: [UInt8]] = [:]
        for variable in Self.variables {
            if reader.value(variable + "_PARAMETER") != nil {
                throw .refused(
                    variable: variable + "_PARAMETER", value: "(not shown)",
                    reason: "names a Parameter Store parameter, which only Secrets.read(from:) reads (the function does, at start-up)")
            }
            values[variable] = reader.value(variable).map { Array($0.utf8) }
        }
        self.values = values
        sources = [:]
    }

    private init(values: [String: [UInt8]], sources: [String: String]) {
        self.values = values
        self.sources = sources
    }

    /// Reads every secret from its variable, or from the Parameter Store parameter its `…_PARAMETER` variable names;
    /// a client for Parameter Store is made only when a parameter is named, and `CAPTCHA_SECRET` is read only for a
    /// `CAPTCHA_PROVIDER` that exists (so that a misspelt provider is reported first, by the configuration). Errors
    /// name the variable.
    public static func read(from environment: [String: String]) throws(ConfigurationError) -> Secrets {
        let reader = EnvironmentReader(environment)
        var values: [String: [UInt8]] = [:]
        var sources: [String: String] = [:]
        var client: ParameterStoreClient?
        let usesCaptchaSecret = reader.value("CAPTCHA_PROVIDER").flatMap { CaptchaProvider(rawValue: $0.lowercased()) } != nil
        for variable in variables where variable != "CAPTCHA_SECRET" || usesCaptchaSecret {
            let parameterVariable = variable + "_PARAMETER"
            let plain = reader.value(variable)
            guard let parameter = reader.value(parameterVariable) else {
                values[variable] = plain.map { Array($0.utf8) }
                continue
            }
            guard plain == nil else {
                throw .refused(
                    variable: variable, value: "(not shown)",
                    reason: "\(parameterVariable) is set too; set one of them (the parameter in a deployment, the plain value only for local runs)")
            }
            let store: ParameterStoreClient
            if let client {
                store = client
            } else {
                store = try parameterStore(in: environment, for: parameterVariable)
                client = store
            }
            do {
                values[variable] = Array(try store.secureString(named: parameter).utf8)
                sources[variable] = parameterVariable
            } catch {
                throw .invalid(variable: parameterVariable, value: parameter, expected: "a readable SecureString parameter: \(error)")
            }
        }
        return Secrets(values: values, sources: sources)
    }

    /// The secret `variable` holds; nil when it is not set.
    public func value(of variable: String) -> [UInt8]? {
        values[variable]
    }

    /// The variable the secret was given by: `variable` itself, or `variable_PARAMETER` when read from Parameter Store.
    public func source(of variable: String) -> String {
        sources[variable] ?? variable
    }

    private static func parameterStore(
        in environment: [String: String], for variable: String
    ) throws(ConfigurationError) -> ParameterStoreClient {
        do {
            let aws = try AWSEnvironment(environment)
            return try ParameterStoreClient(
                region: aws.region, credentials: aws.credentials,
                endpoint: ParameterStoreClient.endpoint(in: environment, region: aws.region))
        } catch let error as SettingError {
            throw .missing(variable: error.variable, hint: "\(variable) needs AWS credentials and a Region to read Parameter Store (\(error))")
        } catch {
            throw .invalid(variable: variable, value: environment[variable] ?? "", expected: "a Parameter Store that can be reached: \(error)")
        }
    }
}
