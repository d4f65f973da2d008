import AWSClient
import Basics
import ChallengeFlows

/// Where the function's secrets come from: plain variables for local runs, or SSM Parameter Store `SecureString`
/// parameters (read once, at start-up) for a deployment, so that the secret is not visible in the function's
/// configuration.
///
/// Each secret is one of `NAME` (the value) or `NAME_PARAMETER` (a parameter name, optionally with a version
/// selector such as `/app/secret:3`, which is how `CODE_HASH_SECRET_PREVIOUS_PARAMETER` names the value before a
/// rotation).
struct SecretSettings {
    private let environment: [String: String]
    private var client: ParameterStoreClient?

    init(environment: [String: String]) {
        self.environment = environment
    }

    /// The secret `variable` names, directly or through `variable_PARAMETER`; nil when neither is set.
    mutating func value(of variable: String) throws(ConfigurationError) -> [UInt8]? {
        let parameterVariable = variable + "_PARAMETER"
        let reader = EnvironmentReader(environment)
        let plain = reader.value(variable)
        guard let parameter = reader.value(parameterVariable) else {
            return plain.map { Array($0.utf8) }
        }
        guard plain == nil else {
            throw .refused(
                variable: variable, value: "(not shown)",
                reason: "\(parameterVariable) is set too; set one of them (the parameter in a deployment, the plain value only for local runs)")
        }
        do {
            return Array(try parameterStore(for: parameterVariable).secureString(named: parameter).utf8)
        } catch {
            throw .invalid(variable: parameterVariable, value: parameter, expected: "a readable SecureString parameter: \(error)")
        }
    }

    private mutating func parameterStore(for variable: String) throws(ConfigurationError) -> ParameterStoreClient {
        if let client { return client }
        do {
            let aws = try AWSEnvironment(environment)
            let made = try ParameterStoreClient(
                region: aws.region, credentials: aws.credentials,
                endpoint: ParameterStoreClient.endpoint(in: environment, region: aws.region))
            client = made
            return made
        } catch let error as SettingError {
            throw .missing(variable: error.variable, hint: "\(variable) needs AWS credentials and a Region to read Parameter Store (\(error))")
        } catch {
            throw .invalid(variable: variable, value: environment[variable] ?? "", expected: "a Parameter Store that can be reached: \(error)")
        }
    }
}
