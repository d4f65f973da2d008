import ChallengeCrypto

extension RandomSource {
    /// A random (version 4, RFC 9562 section 5.4) UUID in lower-case 8-4-4-4-12 form, as Cognito's `jti` and
    /// `event_id` claims are.
    func uuidV4() throws -> String {
        var bytes = try bytes(count: 16)
        bytes[6] = bytes[6] & 0x0F | 0x40  // version 4
        bytes[8] = bytes[8] & 0x3F | 0x80  // variant 10
        let hex = Array(Hex.encode(bytes))
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
