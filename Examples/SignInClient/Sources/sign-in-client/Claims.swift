import ChallengeCrypto
import Foundation

/// The claims of a JWT (its payload), decoded without verifying the signature: a client reads its own tokens to show
/// them; the services they are sent to verify them against the pool's JWKS.
enum Claims {
    static func of(jwt token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = Base64URL.decode(parts[1]) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
    }

    /// Indented JSON with sorted keys, for the terminal.
    static func pretty(_ object: Any) -> String {
        guard let data = try? JSONSerialization.data(
            withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "\(object)" }
        return String(decoding: data, as: UTF8.self)
    }
}
