import ChallengeCrypto
import CognitoSRP
import Platform
import Testing

/// A Swift client signing in against a Swift server, with fresh randomness.
@Suite struct RoundTripTests {
    static let poolName = "Xy9Zw8Vu7"
    static let userId = "5d0c6f9e-round-trip"
    static let password = "P@ssw0rd-ünïcode"
    static let now: Int64 = 1_767_225_600  // Thu Jan 1 00:00:00 UTC 2026

    /// The client's claim and whether the server accepts it; `tamper` may change what the client sends.
    static func signIn(
        clientPassword: String = password, signedTimestamp: Int64 = now, sentTimestamp: Int64 = now,
        sentSecretBlock: [UInt8]? = nil
    ) throws -> Bool {
        let verifier = try SRPVerifier.make(poolName: poolName, userId: userId, password: password)
        let server = try SRPServerSession(verifier: verifier)
        let client = try SRPClient()
        let secretBlock = try SystemRandom().bytes(count: 64)
        let signature = try client.passwordClaim(
            poolName: poolName, userId: userId, password: clientPassword, salt: server.saltHex, serverB: server.publicB,
            secretBlock: secretBlock, timestamp: CognitoTimestamp.format(unixSeconds: signedTimestamp))
        return try server.verifyPasswordClaim(
            clientPublicA: client.publicA, poolName: poolName, userId: userId,
            secretBlock: sentSecretBlock ?? secretBlock, timestamp: CognitoTimestamp.format(unixSeconds: sentTimestamp),
            signature: signature, now: now)
    }

    @Test func theRightPasswordSignsIn() throws {
        for _ in 0..<3 { #expect(try Self.signIn()) }
    }

    @Test func aWrongPasswordIsRefused() throws {
        #expect(try !Self.signIn(clientPassword: Self.password + "x"))
        #expect(try !Self.signIn(clientPassword: ""))
    }

    @Test func aClaimForAnotherTimestampOrSecretBlockIsRefused() throws {
        #expect(try !Self.signIn(signedTimestamp: Self.now, sentTimestamp: Self.now + 1))
        #expect(try !Self.signIn(sentSecretBlock: [1, 2, 3]))
    }

    @Test func freshVerifiersUseFreshSalts() throws {
        let first = try SRPVerifier.make(poolName: Self.poolName, userId: Self.userId, password: Self.password)
        let second = try SRPVerifier.make(poolName: Self.poolName, userId: Self.userId, password: Self.password)
        #expect(first.saltHex.utf8.count == 2 * SRPVerifier.saltByteCount)
        #expect(first.saltHex != second.saltHex)
        #expect(first.verifier != second.verifier)
        #expect(first.verifier.count == 384)
    }

    @Test func aSignatureForAnotherSessionIsRefused() throws {
        let verifier = try SRPVerifier.make(poolName: Self.poolName, userId: Self.userId, password: Self.password)
        let timestamp = CognitoTimestamp.format(unixSeconds: Self.now)
        let client = try SRPClient()
        let first = try SRPServerSession(verifier: verifier)
        let second = try SRPServerSession(verifier: verifier)
        let signature = try client.passwordClaim(
            poolName: Self.poolName, userId: Self.userId, password: Self.password, salt: verifier.saltHex,
            serverB: first.publicB, secretBlock: [9], timestamp: timestamp)
        let replayed = try second.verifyPasswordClaim(
            clientPublicA: client.publicA, poolName: Self.poolName, userId: Self.userId, secretBlock: [9],
            timestamp: timestamp, signature: signature, now: Self.now)
        #expect(!replayed)
    }
}
