import ChallengeCrypto
@testable import CognitoSRP
import Testing

/// What the server and client refuse before any signature is compared.
@Suite struct RejectionTests {
    typealias V = PycognitoVectors

    static let primeHex = Hex.encode(SRPGroup.primeBytes)

    static func verify(
        publicA: String = V.publicA, timestamp: String = V.timestamp, signature: String = V.signature,
        now: Int64 = V.unixSeconds
    ) throws(SRPError) -> Bool {
        let verifier = try SRPVerifier.make(poolName: V.poolName, userId: V.userId, password: V.password, saltHex: V.saltHex)
        let server = try SRPServerSession(verifier: verifier, random: FixedRandom(bytes: V.b))
        return try server.verifyPasswordClaim(
            clientPublicA: publicA, poolName: V.poolName, userId: V.userId, secretBlock: Base64.decode(V.secretBlock)!,
            timestamp: timestamp, signature: signature, now: now)
    }

    @Test(arguments: ["0", "00", primeHex, "0" + primeHex, primeHex.uppercased()])
    func serverRefusesPublicAThatIsZeroModN(publicA: String) {
        #expect(throws: SRPError.publicValueIsZeroModN(field: "SRP_A")) { try Self.verify(publicA: publicA) }
    }

    @Test func serverRefusesTwiceN() throws {
        let twiceN = try BigNumberArithmetic().multiplyAdd(
            SRPGroup.prime(), BigNumber(word: 2), plus: BigNumber(word: 0))
        #expect(throws: SRPError.publicValueIsZeroModN(field: "SRP_A")) {
            try Self.verify(publicA: Hex.encode(twiceN.bytes))
        }
    }

    @Test(arguments: ["", "xyz", "-1", "0x12", " 12", "12 ", String(repeating: "1", count: 1025)])
    func serverRefusesMalformedPublicA(publicA: String) {
        #expect(throws: SRPError.malformedHex(field: "SRP_A", value: publicA)) { try Self.verify(publicA: publicA) }
    }

    @Test(arguments: ["not base64!", "nyZEaY2hm52KXMEsY5Gie8ufWZjEy/9txdtXDx4OKpw", "nyZE=Y2h", "===="])
    func serverRefusesMalformedSignature(signature: String) {
        #expect(throws: SRPError.malformedBase64(field: "PASSWORD_CLAIM_SIGNATURE", value: signature)) {
            try Self.verify(signature: signature)
        }
    }

    @Test func aWellFormedWrongSignatureIsFalseNotAnError() throws {
        #expect(try !Self.verify(signature: Base64.encode([UInt8](repeating: 0, count: 32))))
        #expect(try !Self.verify(signature: ""))
        #expect(try Self.verify())
    }

    @Test(arguments: [Int64(-301), 301, 86_400, -86_400])
    func serverRefusesAStaleOrFutureTimestamp(offset: Int64) {
        #expect(throws: SRPError.staleTimestamp(timestamp: V.timestamp, skewSeconds: -offset, maximumSkewSeconds: 300)) {
            try Self.verify(now: V.unixSeconds + offset)
        }
    }

    @Test(arguments: [Int64(-300), 0, 300])
    func serverAcceptsATimestampWithinFiveMinutes(offset: Int64) throws {
        #expect(try Self.verify(now: V.unixSeconds + offset))
    }

    @Test func serverRefusesAMalformedTimestamp() {
        let padded = "Tue Nov 03 07:04:05 UTC 2026"
        #expect(throws: SRPError.malformedTimestamp(padded)) { try Self.verify(timestamp: padded) }
    }

    @Test(arguments: ["0", primeHex])
    func clientRefusesPublicBThatIsZeroModN(publicB: String) throws {
        let client = try SRPClient(random: FixedRandom(bytes: V.a))
        #expect(throws: SRPError.publicValueIsZeroModN(field: "SRP_B")) {
            try client.passwordClaim(
                poolName: V.poolName, userId: V.userId, password: V.password, salt: V.saltHex, serverB: publicB,
                secretBlock: [], timestamp: V.timestamp)
        }
    }

    @Test func clientRefusesMalformedSaltAndPublicB() throws {
        let client = try SRPClient(random: FixedRandom(bytes: V.a))
        #expect(throws: SRPError.malformedHex(field: "SALT", value: "salt")) {
            try client.passwordClaim(
                poolName: V.poolName, userId: V.userId, password: V.password, salt: "salt", serverB: V.publicB,
                secretBlock: [], timestamp: V.timestamp)
        }
        #expect(throws: SRPError.malformedHex(field: "SRP_B", value: "")) {
            try client.passwordClaim(
                poolName: V.poolName, userId: V.userId, password: V.password, salt: V.saltHex, serverB: "",
                secretBlock: [], timestamp: V.timestamp)
        }
    }

    @Test func aFailingRandomSourceIsReported() {
        #expect(throws: SRPError.randomSourceFailed("the script is shorter than the 128 bytes requested")) {
            try SRPClient(random: FixedRandom(bytes: []))
        }
    }

    @Test func errorMessagesQuoteTheValue() {
        #expect(SRPError.malformedHex(field: "SRP_A", value: "xyz").description
            == "SRP_A \"xyz\" is not hexadecimal text of 1 to 1024 digits")
        #expect(SRPError.staleTimestamp(timestamp: V.timestamp, skewSeconds: -301, maximumSkewSeconds: 300).description
            == "timestamp \"Tue Nov 3 07:04:05 UTC 2026\" is -301 seconds from the server's clock; at most 300 are accepted")
    }
}
