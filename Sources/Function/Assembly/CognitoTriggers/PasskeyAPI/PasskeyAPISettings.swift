import Basics
import ChallengeFlows
import ServiceClients

/// How the passkey API proves its callers.
public struct PasskeyAPISettings: Sendable, Equatable {
    /// Where Cognito's `GetUser` is asked about each bearer token: `COGNITO_IDP_ENDPOINT`, else Cognito's endpoint in
    /// `AWS_REGION` (Lambda sets it); nil when neither is known, and the API then refuses every request.
    public var cognitoEndpoint: String?
    /// `PASSKEY_RECENT_SIGN_IN_SECONDS`: how long after a sign-in its tokens may still add a passkey (60 to 86400,
    /// default 300).
    public var maximumSignInAge: Int64

    public init(cognitoEndpoint: String?, maximumSignInAge: Int64 = PasskeyRegistrationAPI.defaultMaximumSignInAge) {
        self.cognitoEndpoint = cognitoEndpoint
        self.maximumSignInAge = maximumSignInAge
    }

    /// The range `PASSKEY_RECENT_SIGN_IN_SECONDS` takes.
    static let signInAgeRange: ClosedRange<Int64> = 60...86_400

    init(environment: [String: String]) throws(ConfigurationError) {
        let value = EnvironmentReader(environment).trimmedValue
        if let endpoint = value("COGNITO_IDP_ENDPOINT") {
            guard endpoint.hasPrefix("https://") || endpoint.hasPrefix("http://") else {
                throw .invalid(
                    variable: "COGNITO_IDP_ENDPOINT", value: endpoint,
                    expected: "a URL such as https://cognito-idp.us-east-1.amazonaws.com (a local pool's http://127.0.0.1:PORT)")
            }
            cognitoEndpoint = endpoint
        } else {
            cognitoEndpoint = (value("AWS_REGION") ?? value("AWS_DEFAULT_REGION")).map(CognitoAccessTokenCheck.endpoint(region:))
        }
        if let text = value("PASSKEY_RECENT_SIGN_IN_SECONDS") {
            guard let seconds = Int64(text), Self.signInAgeRange.contains(seconds) else {
                throw .invalid(
                    variable: "PASSKEY_RECENT_SIGN_IN_SECONDS", value: text,
                    expected: "whole seconds from \(Self.signInAgeRange.lowerBound) to \(Self.signInAgeRange.upperBound)")
            }
            maximumSignInAge = seconds
        } else {
            maximumSignInAge = PasskeyRegistrationAPI.defaultMaximumSignInAge
        }
    }

    /// The check that proves tokens at ``cognitoEndpoint``; nil without one. Throws when libcurl cannot start.
    public func makeTokenCheck() throws(ConfigurationError) -> CognitoAccessTokenCheck? {
        guard let cognitoEndpoint else { return nil }
        do {
            return try CognitoAccessTokenCheck(endpoint: cognitoEndpoint)
        } catch {
            throw .invalid(variable: "COGNITO_IDP_ENDPOINT", value: cognitoEndpoint, expected: "an endpoint libcurl can use (\(error))")
        }
    }
}
