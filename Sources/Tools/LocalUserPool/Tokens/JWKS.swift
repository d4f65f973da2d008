import LosslessJSON

/// The JSON Web Key Set a user pool publishes at `/.well-known/jwks.json`.
public enum JWKS {
    /// `{"keys":[…]}` with each key's public ``TokenSigningKey/jwk``.
    public static func document(keys: [TokenSigningKey]) -> JSONValue {
        ["keys": .array(keys.map(\.jwk))]
    }
}
