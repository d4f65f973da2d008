import CurlHTTP
import Foundation

/// Cognito's JSON protocol over one kept-alive libcurl handle: `POST /` with the operation in `X-Amz-Target`.
/// The sign-in operations (InitiateAuth, RespondToAuthChallenge) are unauthenticated: no SigV4.
final class CognitoAPI {
    let endpoint: String
    private let session: CurlSession

    init(endpoint: String) throws {
        self.endpoint = endpoint
        // HTTPS to a real pool: the system's CA bundle where this distribution keeps it (else libcurl's default).
        session = try CurlSession(caFile: endpoint.lowercased().hasPrefix("https:") ? CABundle.installed() : nil)
    }

    /// The regional endpoint of a real user pool, whose id starts with its Region (`eu-west-1_AbC123`).
    static func regionalEndpoint(userPoolId: String) -> String? {
        guard let separator = userPoolId.firstIndex(of: "_"), separator != userPoolId.startIndex else { return nil }
        return "https://cognito-idp.\(userPoolId[..<separator]).amazonaws.com/"
    }

    /// Calls `operation` with a JSON object and returns the JSON object it answers; a Cognito error is thrown as
    /// ``CognitoServiceError``.
    func call(_ operation: String, _ body: [String: Any]) throws -> [String: Any] {
        let request = HTTPRequest(
            method: .post, url: endpoint,
            headers: [
                HTTPHeader("Content-Type", "application/x-amz-json-1.1"),
                HTTPHeader("X-Amz-Target", "AWSCognitoIdentityProviderService.\(operation)"),
            ],
            body: Array(try JSONSerialization.data(withJSONObject: body)),
            connectTimeout: .seconds(5), totalTimeout: .seconds(30))
        let response: HTTPResponse
        do {
            response = try session.perform(request)
        } catch {
            throw ClientFailure("\(operation) at \(endpoint): \(error)")
        }
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]
        guard response.status == 200 else {
            // `__type` may be qualified ("com.amazonaws.cognito...#NotAuthorizedException"); the header may carry
            // a suffix after ":".
            let type = (object?["__type"] as? String).map { String($0.split(separator: "#").last ?? "") }
                ?? response.header("x-amzn-ErrorType").map { String($0.split(separator: ":").first ?? "") }
                ?? "HTTP \(response.status)"
            let message = object?["message"] as? String ?? object?["Message"] as? String
                ?? String(decoding: response.body.prefix(300), as: UTF8.self)
            throw CognitoServiceError(operation: operation, type: type, message: message)
        }
        guard let object else {
            throw ClientFailure("\(operation) answered something other than a JSON object")
        }
        return object
    }
}

/// An error Cognito answered (`NotAuthorizedException`, `UserLambdaValidationException`, ...).
struct CognitoServiceError: Error, CustomStringConvertible {
    let operation: String
    let type: String
    let message: String
    var description: String { "\(operation): \(type): \(message)" }
}

/// Anything else that stops the sign-in: the transport, an unexpected answer, no answer to give.
struct ClientFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
