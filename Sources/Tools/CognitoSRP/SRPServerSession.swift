import ChallengeCrypto
import Platform

/// The user pool's side of one SRP sign-in: it answers the client's `SRP_A` with `SRP_B` and `SALT`, then checks
/// the client's `PASSWORD_CLAIM_SIGNATURE`. The caller issues `SECRET_BLOCK` and must check that the claim returns
/// the one it issued.
public struct SRPServerSession: Sendable {
    /// How far a claim's timestamp may be from the server's clock, either way.
    public static let maximumClockSkewSeconds: Int64 = 300

    /// The stored salt and verifier of the user signing in.
    public let verifier: SRPVerifier
    /// b, big-endian: the session's secret exponent.
    private let secretB: [UInt8]
    /// B = (k·v + g^b) mod N, big-endian.
    private let publicBBytes: [UInt8]

    /// A session for the user whose password `verifier` stores, with a fresh secret b from `random`.
    public init(verifier: SRPVerifier, random: some RandomSource = SystemRandom()) throws(SRPError) {
        let prime = try SRPGroup.prime()
        let arithmetic = try BigNumberArithmetic()
        let v = try BigNumber(bytes: verifier.verifier)
        while true {
            let b = try BigNumber(bytes: randomSecretExponent(from: random))
            b.markSecret()
            let gb = try arithmetic.power(SRPGroup.generatorNumber(), b, modulo: prime)
            let kv = try arithmetic.multiply(SRPGroup.multiplier(), v, modulo: prime)
            let publicB = try arithmetic.add(kv, gb, modulo: prime)
            // B ≡ 0 would be refused by the client; it happens with probability about 2^-3072, so draw again.
            guard !publicB.isZero else { continue }
            self.verifier = verifier
            self.secretB = b.bytes
            self.publicBBytes = publicB.bytes
            return
        }
    }

    /// B as Cognito sends `SRP_B`: lower-case hexadecimal without leading zeros.
    public var publicB: String { SRPPadding.minimalHex(publicBBytes) }

    /// The salt to send as `SALT`.
    public var saltHex: String { verifier.saltHex }

    /// Whether the client proved it knows the password: recomputes the key from A and the verifier and compares
    /// its HMAC of poolName ‖ userId ‖ secretBlock ‖ timestamp with `signature` in constant time.
    ///
    /// - Parameters:
    ///   - clientPublicA: `SRP_A` from InitiateAuth, hexadecimal.
    ///   - poolName: the user-pool id's part after "_" (see ``cognitoPoolName(userPoolId:)``).
    ///   - userId: `USER_ID_FOR_SRP`, as sent in the challenge.
    ///   - secretBlock: the decoded `PASSWORD_CLAIM_SECRET_BLOCK`.
    ///   - timestamp: `TIMESTAMP`, as in ``CognitoTimestamp``.
    ///   - signature: `PASSWORD_CLAIM_SIGNATURE`, base64.
    ///   - now: the server's clock in Unix seconds.
    /// - Returns: false for a wrong signature (a wrong password).
    /// - Throws: ``SRPError`` for malformed input, A ≡ 0 mod N, u = 0, or a timestamp more than
    ///   ``maximumClockSkewSeconds`` from `now`.
    public func verifyPasswordClaim(
        clientPublicA: String, poolName: String, userId: String, secretBlock: [UInt8], timestamp: String,
        signature: String, now: Int64
    ) throws(SRPError) -> Bool {
        let claimedAt = try CognitoTimestamp.parse(timestamp)
        let skew = claimedAt - now
        guard abs(skew) <= Self.maximumClockSkewSeconds else {
            throw .staleTimestamp(timestamp: timestamp, skewSeconds: skew, maximumSkewSeconds: Self.maximumClockSkewSeconds)
        }
        guard let presented = Base64.decode(signature) else {
            throw .malformedBase64(field: "PASSWORD_CLAIM_SIGNATURE", value: signature)
        }
        let key = try authenticationKey(clientPublicA: clientPublicA)
        let expected = SRPHashes.claimSignature(
            key: key, poolName: poolName, userId: userId, secretBlock: secretBlock, timestamp: timestamp)
        return constantTimeEquals(expected, presented)
    }

    /// The HKDF key from S = (A · v^u)^b mod N.
    func authenticationKey(clientPublicA: String) throws(SRPError) -> [UInt8] {
        let prime = try SRPGroup.prime()
        let arithmetic = try BigNumberArithmetic()
        let publicA = try BigNumber(bytes: SRPPadding.parseHex(clientPublicA, field: "SRP_A"))
        guard try !arithmetic.reduce(publicA, modulo: prime).isZero else { throw .publicValueIsZeroModN(field: "SRP_A") }
        let u = SRPHashes.scramblingParameter(publicA: publicA.bytes, publicB: publicBBytes)
        let uNumber = try BigNumber(bytes: u)
        guard !uNumber.isZero else { throw .scramblingParameterIsZero }
        let vu = try arithmetic.power(BigNumber(bytes: verifier.verifier), uNumber, modulo: prime)
        let base = try arithmetic.multiply(publicA, vu, modulo: prime)
        let b = try BigNumber(bytes: secretB)
        b.markSecret()
        let sharedSecret = try arithmetic.power(base, b, modulo: prime)
        return SRPHashes.authenticationKey(sharedSecret: sharedSecret.bytes, scramblingParameter: u)
    }
}
