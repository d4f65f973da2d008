import ChallengeCrypto

/// The hashes both sides of Cognito's SRP compute the same way.
enum SRPHashes {
    /// u = H(pad(A) ‖ pad(B)), big-endian.
    static func scramblingParameter(publicA: [UInt8], publicB: [UInt8]) -> [UInt8] {
        SHA256.hash(SRPPadding.pad(publicA) + SRPPadding.pad(publicB))
    }

    /// x = H(padHex(salt) ‖ H(poolName ‖ userId ‖ ":" ‖ password)), big-endian.
    static func privateKey(poolName: String, userId: String, password: String, saltHex: String) throws(SRPError)
        -> [UInt8]
    {
        let identity = SHA256.hash(poolName + userId + ":" + password)
        return SHA256.hash(try SRPPadding.padHexText(saltHex, field: "SALT") + identity)
    }

    /// The 16-byte key both sides sign the claim with: HKDF-SHA256 with salt pad(u), key material pad(S) and
    /// info "Caldera Derived Key", one output block cut to 16 bytes.
    static func authenticationKey(sharedSecret: [UInt8], scramblingParameter: [UInt8]) -> [UInt8] {
        let pseudorandomKey = HMACSHA256.authenticationCode(
            key: SRPPadding.pad(scramblingParameter), message: SRPPadding.pad(sharedSecret))
        let block = HMACSHA256.authenticationCode(key: pseudorandomKey, message: Array("Caldera Derived Key".utf8) + [1])
        return Array(block.prefix(16))
    }

    /// PASSWORD_CLAIM_SIGNATURE's bytes: HMAC-SHA256(key, poolName ‖ userId ‖ secret block ‖ timestamp).
    static func claimSignature(
        key: [UInt8], poolName: String, userId: String, secretBlock: [UInt8], timestamp: String
    ) -> [UInt8] {
        let message = Array(poolName.utf8) + Array(userId.utf8) + secretBlock + Array(timestamp.utf8)
        return HMACSHA256.authenticationCode(key: key, message: message)
    }
}
