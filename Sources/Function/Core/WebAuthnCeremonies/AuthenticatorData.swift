import ChallengeCrypto

/// The authenticator data (WebAuthn §6.1): rpIdHash ‖ flags ‖ signCount ‖ [attested credential data] ‖ [extensions].
struct AuthenticatorData: Sendable {
    /// The flag bits (§6.1).
    struct Flags: OptionSet, Sendable {
        let rawValue: UInt8
        /// UP: the user was present.
        static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified.
        static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up.
        static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up.
        static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows the counter.
        static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: extension data ends the authenticator data.
        static let extensionData = Flags(rawValue: 0x80)
    }

    /// The attested credential data (§6.5.2), present when AT is set.
    struct AttestedCredential: Sendable {
        /// The authenticator model (16 bytes).
        var aaguid: [UInt8]
        /// The credential ID (at most 1023 bytes).
        var credentialID: [UInt8]
        /// The credential public key as its COSE_Key bytes.
        var publicKeyBytes: [UInt8]
        /// The same, decoded.
        var publicKey: CBORValue
    }

    /// The longest credential ID accepted (§5.8.3 allows up to 1023 bytes).
    static let maximumCredentialIDLength = 1023

    /// The bytes as received: what the signature covers.
    var bytes: [UInt8]
    /// SHA-256 of the RP ID the authenticator scoped the credential to.
    var rpIDHash: [UInt8]
    var flags: Flags
    /// The signature counter (0 when the authenticator keeps none).
    var signCount: UInt32
    var attestedCredential: AttestedCredential?
    /// The authenticator extension outputs (a CBOR map), present when ED is set.
    var extensions: CBORValue?

    /// Reads authenticator data; every byte must belong to a part the flags announce.
    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else {
            throw .malformed("authenticator data of \(bytes.count) bytes is shorter than the 37 it always has")
        }
        guard bytes.count <= CBORDecoder.maximumInputSize else {
            throw .malformed("authenticator data of \(bytes.count) bytes is too large")
        }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= offset + 18 else { throw .malformed("the attested credential data is cut short") }
            let aaguid = Array(bytes[offset..<offset + 16])
            let idLength = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard idLength <= Self.maximumCredentialIDLength else {
                throw .malformed("the credential ID of \(idLength) bytes is over \(Self.maximumCredentialIDLength)")
            }
            guard bytes.count >= offset + idLength else { throw .malformed("the credential ID is cut short") }
            let credentialID = Array(bytes[offset..<offset + idLength])
            offset += idLength
            let (key, keyLength): (CBORValue, Int)
            do {
                (key, keyLength) = try CBORDecoder.decodePrefix(bytes, from: offset)
            } catch {
                throw .malformed("credential public key: \(error)")
            }
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[offset..<offset + keyLength]),
                publicKey: key)
            offset += keyLength
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard offset < bytes.count else { throw .malformed("the ED flag is set but no extensions follow") }
            let (value, length): (CBORValue, Int)
            do {
                (value, length) = try CBORDecoder.decodePrefix(bytes, from: offset)
            } catch {
                throw .malformed("authenticator extensions: \(error)")
            }
            guard value.mapValue != nil else { throw .malformed("the authenticator extensions are not a CBOR map") }
            extensions = value
            offset += length
        } else {
            extensions = nil
        }
        guard offset == bytes.count else {
            throw .malformed("\(bytes.count - offset) bytes follow the authenticator data's last part")
        }
    }
}

/// The client data (§5.8.1) as the browser serialised it.
struct ClientData: Sendable {
    /// `webauthn.create` or `webauthn.get`.
    var type: String
    /// The challenge, decoded from base64url.
    var challenge: [UInt8]
    var origin: String
    var crossOrigin: Bool
    var topOrigin: String?

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        let object = try JSONFields(bytes, what: "clientDataJSON")
        type = try object.string("type")
        guard let challenge = Base64URL.decode(try object.string("challenge")) else {
            throw .malformed("clientDataJSON.challenge is not base64url")
        }
        self.challenge = challenge
        origin = try object.string("origin")
        crossOrigin = try object.optionalBool("crossOrigin") ?? false
        topOrigin = try object.optionalString("topOrigin")
    }
}
