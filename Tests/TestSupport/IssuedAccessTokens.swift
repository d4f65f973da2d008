import ChallengeCrypto
import LosslessJSON
import Platform
import ServiceClients

/// Cognito as the passkey API's tests need it: the access tokens a test issues are live until it revokes them, and
/// every other token (forged, made up, revoked) is refused, as `GetUser` refuses it. A live token's user is the one
/// its payload names; the payload's other checks (`token_use`, the pool in `iss`, `auth_time`) are the real ones of
/// ``CognitoAccessTokenCheck``.
public final class IssuedAccessTokens: AccessTokenVerifier {
    private let state = PosixLock<(live: Set<String>, issued: Int)>(([], 0))

    public init() {}

    /// A JWT-shaped token with `claims` as its payload (numbers for `auth_time`, `exp` and `iat` given as digits),
    /// live from now on.
    public func issue(_ claims: [String: String]) -> String {
        let serial = state.withLock { state -> Int in
            state.issued += 1
            return state.issued
        }
        var payload = JSONObject()
        for (name, value) in claims.sorted(by: { $0.key < $1.key }) {
            payload[name] = ["auth_time", "exp", "iat"].contains(name) && Int64(value) != nil
                ? .number(JSONNumber(Int(value)!)) : .string(value)
        }
        payload["jti"] = .string("test-token-\(serial)")
        let token = [
            Base64URL.encode(Array(#"{"alg":"RS256","kid":"test"}"#.utf8)),
            Base64URL.encode(Array(JSONValue.object(payload).text().utf8)),
            Base64URL.encode(Array("test signature \(serial)".utf8)),
        ].joined(separator: ".")
        state.withLock { _ = $0.live.insert(token) }
        return token
    }

    /// The token stops working, as after `RevokeToken` or `GlobalSignOut`.
    public func revoke(_ token: String) {
        state.withLock { _ = $0.live.remove(token) }
    }

    public func prove(_ accessToken: String) throws(AccessTokenRefusal) -> ProvenAccessToken {
        guard state.withLock({ $0.live.contains(accessToken) }) else { throw .notAuthorized("Cognito says \"Invalid Access Token\"") }
        let claims = try CognitoAccessTokenCheck.payload(of: accessToken)
        return try CognitoAccessTokenCheck.proven(
            claims: claims, username: claims["username"]?.stringValue ?? "", sub: claims["sub"]?.stringValue ?? "")
    }
}
