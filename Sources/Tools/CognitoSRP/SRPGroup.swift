import ChallengeCrypto

/// The group Cognito uses: the 3072-bit prime of RFC 5054 appendix A with generator 2, and the multiplier
/// k = H(pad(N) ‖ pad(g)).
enum SRPGroup {
    /// N, big-endian.
    static let primeBytes: [UInt8] = Hex.decode(
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
            + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
            + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
            + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
            + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
            + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
    )!

    static let generator: UInt = 2

    /// The most hexadecimal digits accepted for a public value or a salt (N itself has 768).
    static let maximumHexDigits = 1024

    /// How many random bytes make a secret exponent (a or b) before reduction modulo N, as pycognito draws them.
    static let secretExponentByteCount = 128

    /// k = H(pad(N) ‖ pad(g)).
    static let multiplierBytes: [UInt8] = SHA256.hash(SRPPadding.pad(primeBytes) + SRPPadding.pad([UInt8(generator)]))

    static func prime() throws(SRPError) -> BigNumber { try BigNumber(bytes: primeBytes) }
    static func generatorNumber() throws(SRPError) -> BigNumber { try BigNumber(word: generator) }
    static func multiplier() throws(SRPError) -> BigNumber { try BigNumber(bytes: multiplierBytes) }
}
