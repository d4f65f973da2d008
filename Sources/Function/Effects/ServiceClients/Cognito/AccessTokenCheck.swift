import ChallengeCrypto
import CurlHTTP
import LosslessJSON
import Platform

/// A Cognito access token that Cognito itself accepted: genuine, unexpired and not revoked, with the user it names.
public struct ProvenAccessToken: Sendable, Equatable {
    /// The user's name, as Cognito's `GetUser` answered it.
    public var username: String
    /// The user's `sub`, as `GetUser` answered it (and the token says).
    public var sub: String
    /// The pool that issued the token: the last segment of its `iss`.
    public var userPoolID: String
    /// When the user signed in (the token's `auth_time`, Unix seconds); a refreshed token keeps the first sign-in's.
    public var authTime: Int64
    /// The app client the token was issued to (`client_id`).
    public var clientID: String

    public init(username: String, sub: String, userPoolID: String, authTime: Int64, clientID: String) {
        self.username = username
        self.sub = sub
        self.userPoolID = userPoolID
        self.authTime = authTime
        self.clientID = clientID
    }
}

/// Why a bearer token was not accepted.
public enum AccessTokenRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is not a live access token of the pool: forged, expired, revoked, an ID token, or not a JWT.
    case notAuthorized(String)
    /// Cognito could not be asked (unreachable, timed out, an unexpected answer): nothing is known about the token.
    case unavailable(String)

    public var description: String {
        switch self {
        case .notAuthorized(let reason): "the access token was refused: \(reason)"
        case .unavailable(let reason): "the access token could not be checked: \(reason)"
        }
    }
}

/// Proves a bearer access token and names its user.
public protocol AccessTokenVerifier: Sendable {
    func prove(_ accessToken: String) throws(AccessTokenRefusal) -> ProvenAccessToken
}

/// Proves access tokens with Cognito's `GetUser` (JSON protocol, no signature: the token is the credential), which
/// refuses a forged, expired or revoked token and otherwise names the user. The token's own payload then gives what
/// `GetUser` does not (`auth_time`, `client_id`, the pool in `iss`); it is read only after Cognito accepted the token,
/// and its `sub` and `username` must be the ones Cognito answered.
///
/// Calls from several threads take turns on one kept-alive connection.
public final class CognitoAccessTokenCheck: AccessTokenVerifier {
    /// Where `GetUser` goes, such as `https://cognito-idp.us-east-1.amazonaws.com`.
    public let endpoint: String
    private let session: PosixLock<CurlSession>
    private let timeBudget: Duration

    /// The longest token sent; Cognito's access tokens are about a kilobyte.
    public static let maximumTokenLength = 16_384

    /// - Parameters:
    ///   - endpoint: Cognito's endpoint in the function's Region (`COGNITO_IDP_ENDPOINT` overrides it for local pools).
    ///   - timeBudget: how long one check may take, connecting included.
    public init(endpoint: String, caFile: String? = CABundle.installed(), timeBudget: Duration = .seconds(2)) throws(CurlError) {
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        session = PosixLock(try CurlSession(caFile: caFile))
        self.timeBudget = timeBudget
    }

    public func prove(_ accessToken: String) throws(AccessTokenRefusal) -> ProvenAccessToken {
        guard !accessToken.isEmpty, accessToken.utf8.count <= Self.maximumTokenLength else {
            throw .notAuthorized("the token is empty or longer than \(Self.maximumTokenLength) bytes")
        }
        // Read before the call, so that a token that is not even a JWT costs no request.
        let claims = try Self.payload(of: accessToken)
        let body = JSONValue.object(JSONObject([("AccessToken", .string(accessToken))])).text()
        let request = HTTPRequest(
            method: .post, url: endpoint + "/",
            headers: [
                HTTPHeader("Content-Type", "application/x-amz-json-1.1"),
                HTTPHeader("X-Amz-Target", "AWSCognitoIdentityProviderService.GetUser"),
            ],
            body: Array(body.utf8), connectTimeout: min(timeBudget, .seconds(1)), totalTimeout: timeBudget)
        let response: HTTPResponse
        do {
            response = try session.withLock { session throws(CurlError) in try session.perform(request) }
        } catch {
            throw .unavailable("Cognito at \(endpoint) did not answer: \(error.message)")
        }
        let answer = (try? JSONValue(parsing: response.body))?.objectValue
        guard response.status == 200, let answer else {
            let type = (answer?["__type"]?.stringValue).map { String($0.split(separator: "#").last ?? "") }
                ?? response.header("x-amzn-ErrorType").map { String($0.prefix { $0 != ":" }) }
            if response.status == 400, type == "NotAuthorizedException" {
                throw .notAuthorized("Cognito says \"\(String((answer?["message"]?.stringValue ?? "not authorized").prefix(120)))\"")
            }
            throw .unavailable("Cognito answered HTTP \(response.status)\(type.map { " \($0)" } ?? "")")
        }
        guard let username = answer["Username"]?.stringValue,
              let sub = answer["UserAttributes"]?.arrayValue?.lazy.compactMap(\.objectValue)
                .first(where: { $0["Name"]?.stringValue == "sub" })?["Value"]?.stringValue
        else { throw .unavailable("Cognito's GetUser answer has no Username or sub") }
        return try Self.proven(claims: claims, username: username, sub: sub)
    }

    /// The token's payload (the JWT's middle part), unverified: to be trusted only once Cognito accepted the token.
    public static func payload(of token: String) throws(AccessTokenRefusal) -> JSONObject {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
              let claims = (try? JSONValue(parsing: bytes))?.objectValue
        else { throw .notAuthorized("the token is not a JWT") }
        return claims
    }

    /// The proven token from its payload and `GetUser`'s answer, which must agree.
    public static func proven(claims: JSONObject, username: String, sub: String) throws(AccessTokenRefusal) -> ProvenAccessToken {
        guard claims["token_use"]?.stringValue == "access" else {
            throw .notAuthorized("it is not an access token (token_use is \(claims["token_use"]?.stringValue ?? "missing"))")
        }
        guard claims["sub"]?.stringValue == sub, claims["username"]?.stringValue == username else {
            throw .notAuthorized("its sub and username are not the user Cognito names")
        }
        guard let pool = userPoolID(issuer: claims["iss"]?.stringValue) else {
            throw .notAuthorized("its issuer (iss) names no user pool")
        }
        guard case .number(let authTime)? = claims["auth_time"], let seconds = authTime.intValue else {
            throw .notAuthorized("it has no auth_time")
        }
        return ProvenAccessToken(
            username: username, sub: sub, userPoolID: pool, authTime: Int64(seconds),
            clientID: claims["client_id"]?.stringValue ?? "")
    }

    /// The pool id at the end of a Cognito issuer, `https://cognito-idp.REGION.amazonaws.com/POOL_ID` (or a local
    /// pool's URL of the same shape): the last path segment, which holds the region, `_`, and the id.
    public static func userPoolID(issuer: String?) -> String? {
        guard let issuer, let slash = issuer.lastIndex(of: "/") else { return nil }
        let id = issuer[issuer.index(after: slash)...]
        guard id.contains("_"), !id.hasPrefix("_"), !id.hasSuffix("_") else { return nil }
        return String(id)
    }

    /// Cognito's endpoint in `region`.
    public static func endpoint(region: String) -> String {
        "https://cognito-idp.\(region).amazonaws.com"
    }
}
