import ChallengeCrypto
@testable import CognitoSRP
import Testing

/// The Swift client and server against pycognito's numbers for the same fixed exchange (see PycognitoVectors).
@Suite struct PycognitoVectorTests {
    typealias V = PycognitoVectors

    static func verifier() throws -> SRPVerifier {
        try SRPVerifier.make(poolName: V.poolName, userId: V.userId, password: V.password, saltHex: V.saltHex)
    }

    static func server() throws -> SRPServerSession {
        try SRPServerSession(verifier: verifier(), random: FixedRandom(bytes: V.b))
    }

    static func client() throws -> SRPClient {
        try SRPClient(random: FixedRandom(bytes: V.a))
    }

    @Test func poolNameIsThePartAfterTheUnderscore() throws {
        #expect(try cognitoPoolName(userPoolId: V.poolId) == V.poolName)
        #expect(throws: SRPError.malformedUserPoolId("nounderscore")) { try cognitoPoolName(userPoolId: "nounderscore") }
        #expect(throws: SRPError.malformedUserPoolId("eu-west-1_")) { try cognitoPoolName(userPoolId: "eu-west-1_") }
    }

    @Test func multiplierMatches() {
        #expect(Hex.encode(SRPGroup.multiplierBytes) == V.k)
    }

    @Test func privateKeyAndVerifierMatch() throws {
        let x = try SRPHashes.privateKey(poolName: V.poolName, userId: V.userId, password: V.password, saltHex: V.saltHex)
        #expect(Hex.encode(x) == V.x)
        let verifier = try Self.verifier()
        #expect(verifier.saltHex == V.saltHex)
        #expect(Hex.encode(verifier.verifier) == V.v)
    }

    @Test func publicValuesMatch() throws {
        #expect(try Self.client().publicA == V.publicA)
        #expect(try Self.server().publicB == V.publicB)
        #expect(try Self.server().saltHex == V.saltHex)
    }

    @Test func scramblingParameterAndKeyDerivationMatch() {
        let u = SRPHashes.scramblingParameter(publicA: V.hex(V.publicA), publicB: V.hex(V.publicB))
        #expect(Hex.encode(u) == V.u)
        let key = SRPHashes.authenticationKey(sharedSecret: V.hex(V.sharedSecret), scramblingParameter: u)
        #expect(Hex.encode(key) == V.key)
    }

    @Test func bothSidesDerivePycognitosKey() throws {
        let clientKey = try Self.client().authenticationKey(
            poolName: V.poolName, userId: V.userId, password: V.password, salt: V.saltHex, serverB: V.publicB)
        #expect(Hex.encode(clientKey) == V.key)
        #expect(Hex.encode(try Self.server().authenticationKey(clientPublicA: V.publicA)) == V.key)
    }

    @Test func clientSignsAsPycognitoDoes() throws {
        let secretBlock = try #require(Base64.decode(V.secretBlock))
        let signature = try Self.client().passwordClaim(
            poolName: V.poolName, userId: V.userId, password: V.password, salt: V.saltHex, serverB: V.publicB,
            secretBlock: secretBlock, timestamp: V.timestamp)
        #expect(signature == V.signature)
    }

    @Test func serverAcceptsPycognitosClaim() throws {
        let secretBlock = try #require(Base64.decode(V.secretBlock))
        let accepted = try Self.server().verifyPasswordClaim(
            clientPublicA: V.publicA, poolName: V.poolName, userId: V.userId, secretBlock: secretBlock,
            timestamp: V.timestamp, signature: V.signature, now: V.unixSeconds + 42)
        #expect(accepted)
    }

    @Test func timestampMatches() throws {
        #expect(CognitoTimestamp.format(unixSeconds: V.unixSeconds) == V.timestamp)
        #expect(try CognitoTimestamp.parse(V.timestamp) == V.unixSeconds)
    }
}
