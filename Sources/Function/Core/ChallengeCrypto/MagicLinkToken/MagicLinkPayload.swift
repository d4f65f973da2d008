/// The signed part of a magic-link token, in bytes:
///
///     version (1 byte, 1) · key id length (1) · key id (ASCII) · step index (2, big-endian)
///     · expiry (8, big-endian Unix seconds) · subject tag (16) · nonce (16)
///
/// followed in the token by the HMAC-SHA256 of the domain label and these bytes (32). The user pool and user name
/// are not in the token, only a keyed tag of them, so a link shows neither.
struct MagicLinkPayload: Equatable {
    static let version: UInt8 = 1
    static let subjectTagByteCount = 16
    static let nonceByteCount = 16
    static let macByteCount = 32
    /// Everything but the key id.
    static let fixedByteCount = 1 + 1 + 2 + 8 + subjectTagByteCount + nonceByteCount

    var keyID: String
    var stepIndex: UInt16
    var expiresAt: Int64
    var subjectTag: [UInt8]
    var nonce: [UInt8]

    init(keyID: String, stepIndex: UInt16, expiresAt: Int64, subjectTag: [UInt8], nonce: [UInt8]) {
        self.keyID = keyID
        self.stepIndex = stepIndex
        self.expiresAt = expiresAt
        self.subjectTag = subjectTag
        self.nonce = nonce
    }

    /// Reads the payload that `signed` holds in full; nil when its version, lengths or key id are off.
    init?(decoding signed: ArraySlice<UInt8>) {
        let bytes = Array(signed)
        guard bytes.count > Self.fixedByteCount, bytes[0] == Self.version else { return nil }
        let keyIDLength = Int(bytes[1])
        guard bytes.count == Self.fixedByteCount + keyIDLength else { return nil }
        let keyIDBytes = bytes[2..<2 + keyIDLength]
        guard MagicLinkToken.isKeyID(keyIDBytes) else { return nil }
        var position = 2 + keyIDLength
        func take(_ count: Int) -> ArraySlice<UInt8> {
            defer { position += count }
            return bytes[position..<position + count]
        }
        keyID = String(decoding: keyIDBytes, as: UTF8.self)
        stepIndex = take(2).reduce(0) { $0 << 8 | UInt16($1) }
        expiresAt = Int64(bitPattern: take(8).reduce(0) { $0 << 8 | UInt64($1) })
        subjectTag = Array(take(Self.subjectTagByteCount))
        nonce = Array(take(Self.nonceByteCount))
    }

    /// The bytes the MAC covers.
    var bytes: [UInt8] {
        var output: [UInt8] = [Self.version, UInt8(keyID.utf8.count)]
        output += keyID.utf8
        output += [UInt8(stepIndex >> 8), UInt8(truncatingIfNeeded: stepIndex)]
        let expiry = UInt64(bitPattern: expiresAt)
        output += stride(from: 56, through: 0, by: -8).map { UInt8(truncatingIfNeeded: expiry >> UInt64($0)) }
        return output + subjectTag + nonce
    }
}
