import ChallengeCrypto
import Platform

/// The client's side of one SRP sign-in, as pycognito's `AWSSRP` computes it: it sends `SRP_A` and answers the
/// PASSWORD_VERIFIER challenge with a signature.
public struct SRPClient: Sendable {
    /// a, big-endian: the session's secret exponent.
    private let secretA: [UInt8]
    /// A = g^a mod N, big-endian.
    private let publicABytes: [UInt8]

    /// A client with a fresh secret a from `random` (128 bytes reduced modulo N).
    public init(random: some RandomSource = SystemRandom()) throws(SRPError) {
        let a = try BigNumber(bytes: randomSecretExponent(from: random))
        a.markSecret()
        // 0 < a < N, and g generates a group of order (N − 1) / 2, so A is never 0.
        let publicA = try BigNumberArithmetic().power(SRPGroup.generatorNumber(), a, modulo: SRPGroup.prime())
        secretA = a.bytes
        publicABytes = publicA.bytes
    }

    /// A as `SRP_A`: lower-case hexadecimal without leading zeros.
    public var publicA: String { SRPPadding.minimalHex(publicABytes) }

    /// `PASSWORD_CLAIM_SIGNATURE` (base64) for the PASSWORD_VERIFIER challenge.
    ///
    /// - Parameters:
    ///   - poolName: the user-pool id's part after "_" (see ``cognitoPoolName(userPoolId:)``).
    ///   - userId: `USER_ID_FOR_SRP` from the challenge.
    ///   - salt: `SALT` from the challenge, hexadecimal.
    ///   - serverB: `SRP_B` from the challenge, hexadecimal.
    ///   - secretBlock: the decoded `SECRET_BLOCK` from the challenge.
    ///   - timestamp: the `TIMESTAMP` to send, as ``CognitoTimestamp/format(unixSeconds:)`` writes it.
    /// - Throws: ``SRPError`` for malformed hex, B ≡ 0 mod N, or u = 0.
    public func passwordClaim(
        poolName: String, userId: String, password: String, salt: String, serverB: String, secretBlock: [UInt8],
        timestamp: String
    ) throws(SRPError) -> String {
        let key = try authenticationKey(poolName: poolName, userId: userId, password: password, salt: salt, serverB: serverB)
        let signature = SRPHashes.claimSignature(
            key: key, poolName: poolName, userId: userId, secretBlock: secretBlock, timestamp: timestamp)
        return Base64.encode(signature)
    }

    /// The HKDF key from S = (B − k·g^x)^(a + u·x) mod N.
    func authenticationKey(poolName: String, userId: String, password: String, salt: String, serverB: String)
        throws(SRPError) -> [UInt8]
    {
        let prime = try SRPGroup.prime()
        let arithmetic = try BigNumberArithmetic()
        let publicB = try BigNumber(bytes: SRPPadding.parseHex(serverB, field: "SRP_B"))
        guard try !arithmetic.reduce(publicB, modulo: prime).isZero else { throw .publicValueIsZeroModN(field: "SRP_B") }
        let u = SRPHashes.scramblingParameter(publicA: publicABytes, publicB: publicB.bytes)
        let uNumber = try BigNumber(bytes: u)
        guard !uNumber.isZero else { throw .scramblingParameterIsZero }
        let x = try BigNumber(
            bytes: SRPHashes.privateKey(poolName: poolName, userId: userId, password: password, saltHex: salt))
        x.markSecret()
        let gx = try arithmetic.power(SRPGroup.generatorNumber(), x, modulo: prime)
        let kgx = try arithmetic.multiply(SRPGroup.multiplier(), gx, modulo: prime)
        let base = try arithmetic.subtract(publicB, kgx, modulo: prime)
        let a = try BigNumber(bytes: secretA)
        let exponent = try arithmetic.multiplyAdd(uNumber, x, plus: a)
        exponent.markSecret()
        let sharedSecret = try arithmetic.power(base, exponent, modulo: prime)
        return SRPHashes.authenticationKey(sharedSecret: sharedSecret.bytes, scramblingParameter: u)
    }
}
