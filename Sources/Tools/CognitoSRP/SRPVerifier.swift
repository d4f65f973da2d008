import ChallengeCrypto
import Platform

/// What a user pool stores instead of a password: a salt and the verifier v = g^x mod N, where
/// x = H(salt ‖ H(poolName ‖ userId ‖ ":" ‖ password)).
public struct SRPVerifier: Sendable, Equatable {
    /// The salt as Cognito sends it in `SALT`: lower-case hexadecimal text, hashed after `padHex`.
    public let saltHex: String
    /// v, big-endian, 384 bytes (the width of N).
    public let verifier: [UInt8]

    /// Bytes of fresh salt, as Cognito draws them.
    public static let saltByteCount = 16

    /// Wraps a stored salt and verifier.
    public init(saltHex: String, verifier: [UInt8]) {
        self.saltHex = saltHex
        self.verifier = verifier
    }

    /// The salt and verifier for `password`, with `saltHex` if given, else ``saltByteCount`` bytes from `random`.
    public static func make(
        poolName: String, userId: String, password: String, saltHex: String? = nil,
        random: some RandomSource = SystemRandom()
    ) throws(SRPError) -> SRPVerifier {
        let salt: String
        if let saltHex { salt = saltHex } else { salt = Hex.encode(try randomBytes(count: saltByteCount, from: random)) }
        let x = try BigNumber(
            bytes: SRPHashes.privateKey(poolName: poolName, userId: userId, password: password, saltHex: salt))
        x.markSecret()
        let prime = try SRPGroup.prime()
        let v = try BigNumberArithmetic().power(SRPGroup.generatorNumber(), x, modulo: prime)
        return SRPVerifier(saltHex: salt, verifier: v.bytes(width: SRPGroup.primeBytes.count))
    }
}

/// `count` bytes from `random`, its failure reported as an ``SRPError``.
func randomBytes(count: Int, from random: some RandomSource) throws(SRPError) -> [UInt8] {
    do {
        return try random.bytes(count: count)
    } catch {
        throw .randomSourceFailed("\(error)")
    }
}

/// A secret exponent as pycognito draws one: ``SRPGroup/secretExponentByteCount`` random bytes modulo N,
/// drawn again in the vanishing case that this is zero.
func randomSecretExponent(from random: some RandomSource) throws(SRPError) -> [UInt8] {
    let prime = try SRPGroup.prime()
    let arithmetic = try BigNumberArithmetic()
    while true {
        let draw = try BigNumber(bytes: randomBytes(count: SRPGroup.secretExponentByteCount, from: random))
        let exponent = try arithmetic.reduce(draw, modulo: prime)
        if !exponent.isZero { return exponent.bytes }
    }
}
