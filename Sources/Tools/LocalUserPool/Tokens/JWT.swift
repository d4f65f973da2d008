import ChallengeCrypto
import LosslessJSON

/// Compact JWS tokens signed with RS256 (RFC 7515, RFC 7519), as Cognito's ID and access tokens are.
public enum JWT {
    /// `header.claims.signature`, each part base64url: the header is `{"kid":…,"alg":"RS256"}` (Cognito's order)
    /// and the claims are written compactly in their order.
    public static func encode(claims: JSONObject, key: TokenSigningKey) throws(SigningKeyError) -> String {
        let header: JSONValue = ["kid": .string(key.keyID), "alg": "RS256"]
        let payload = JSONValue.object(claims).serialized()
        let signingInput = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload)
        return signingInput + "." + Base64URL.encode(try key.sign(Array(signingInput.utf8)))
    }

    /// The claims of a token that `key` signed and that has not expired at `now` (Unix seconds).
    ///
    /// Checks, in order: the token's shape, that the header names RS256 and (when it names one) `key`'s ID, the
    /// signature, and that `exp` is after `now`. Other claims (`iss`, `aud`, `token_use`) are the caller's to check.
    public static func verify(_ token: String, key: TokenSigningKey, now: Int64) throws(TokenError) -> JSONObject {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            throw .malformed(reason: "it has \(parts.count) dot-separated parts, not 3")
        }
        let header = try object(in: parts[0], named: "header")
        guard let algorithm = header["alg"] else { throw .malformed(reason: "the header has no \"alg\" member") }
        guard algorithm.stringValue == "RS256" else {
            throw .unsupportedAlgorithm(algorithm.stringValue ?? algorithm.text())
        }
        if let keyID = header["kid"] {
            guard keyID.stringValue == key.keyID else { throw .unknownKeyID(keyID.stringValue ?? keyID.text()) }
        }
        guard let signature = Base64URL.decode(parts[2]) else {
            throw .malformed(reason: "the signature \"\(parts[2])\" is not base64url")
        }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.isValidSignature(signature, of: signingInput) else { throw .invalidSignature }
        let claims = try object(in: parts[1], named: "claims")
        guard case .number(let number)? = claims["exp"], let expiry = Int64(number.literal) else {
            throw .missingExpiry
        }
        guard now < expiry else { throw .expired(expiry: expiry, now: now) }
        return claims
    }

    /// The JSON object a base64url part encodes.
    private static func object(in part: Substring, named name: String) throws(TokenError) -> JSONObject {
        guard let bytes = Base64URL.decode(part) else {
            throw .malformed(reason: "the \(name) \"\(part)\" is not base64url")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .malformed(reason: "the \(name) is not JSON (\(error))")
        }
        guard let object = value.objectValue else {
            throw .malformed(reason: "the \(name) is a JSON \(value.typeName), not an object")
        }
        return object
    }
}
