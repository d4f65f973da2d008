/// The relying party a deployment speaks for: the passkeys' scope and the web origins allowed to use them.
public struct RelyingParty: Sendable, Equatable {
    /// The RP ID (`PASSKEY_RP_ID`), a registrable domain such as `example.com`, or `localhost`.
    public var id: String
    /// The name authenticators show when a passkey is created (`PASSKEY_RP_NAME`).
    public var name: String
    /// Every origin a ceremony may come from, exactly as browsers write them (`https://example.com`,
    /// `http://localhost:5173`); compared byte for byte.
    public var allowedOrigins: [String]

    public init(id: String, name: String, allowedOrigins: [String]) {
        self.id = id
        self.name = name
        self.allowedOrigins = allowedOrigins
    }
}
