import ChallengeCrypto
import ChallengeFlows
import Testing

@Suite("ChallengeSeal as text: challengeMetadata and private parameters, written and read back")
struct ChallengeSealTextTests {
    /// 0x00 to 0x1f, and the same in hexadecimal.
    static let hash = (0..<32).map { UInt8($0) }
    static let hashText = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"

    static func seal(step: Int = 0, expiresAt: Int64 = 1_700_000_180, keyID: String? = "1a2b3c4d") -> ChallengeSeal {
        ChallengeSeal(kind: .emailCode, stepIndex: step, expiresAt: expiresAt, answerHash: hash, keyID: keyID)
    }

    static func parameters(step: String, expiresAt: String, hash: String = hashText, keyID: String? = nil) -> [String: String] {
        var parameters = ["challenge": "EMAIL_CODE", "step": step, "expiresAt": expiresAt, "answerHash": hash]
        parameters["keyId"] = keyID
        return parameters
    }

    @Test("metadata is KIND:step:expiresAt:hash, then :keyID when there is one")
    func metadataText() {
        #expect(Self.seal().metadata == "EMAIL_CODE:0:1700000180:\(Self.hashText):1a2b3c4d")
        #expect(Self.seal(keyID: nil).metadata == "EMAIL_CODE:0:1700000180:\(Self.hashText)")
        #expect(Self.seal(step: 12, expiresAt: 0, keyID: nil).metadata == "EMAIL_CODE:12:0:\(Self.hashText)")
        #expect(Self.seal(step: 9, expiresAt: -5).metadata == "EMAIL_CODE:9:-5:\(Self.hashText):1a2b3c4d")
        #expect(Self.seal(expiresAt: .max).metadata == "EMAIL_CODE:0:9223372036854775807:\(Self.hashText):1a2b3c4d")
        #expect(Self.seal(expiresAt: .min).metadata == "EMAIL_CODE:0:-9223372036854775808:\(Self.hashText):1a2b3c4d")
        #expect(Self.seal(step: -3, keyID: nil).metadata == "EMAIL_CODE:-3:1700000180:\(Self.hashText)")
        let short = ChallengeSeal(kind: .captcha, stepIndex: 1, expiresAt: 7, answerHash: [0xAB], keyID: "κ")
        #expect(short.metadata == "CAPTCHA:1:7:ab:κ")
    }

    @Test("private parameters hold the same fields by name, keyId only when there is a key id")
    func privateParametersText() {
        #expect(Self.seal().privateParameters == Self.parameters(step: "0", expiresAt: "1700000180", keyID: "1a2b3c4d"))
        #expect(Self.seal(step: 3, expiresAt: -5, keyID: nil).privateParameters == Self.parameters(step: "3", expiresAt: "-5"))
    }

    @Test(
        "both forms read back what they wrote",
        arguments: [
            seal(), seal(keyID: nil), seal(step: 7, expiresAt: 0), seal(expiresAt: -1), seal(expiresAt: .max),
            seal(expiresAt: .min, keyID: nil), seal(step: .max, keyID: "ABCDEF09"),
        ])
    func roundTrips(seal: ChallengeSeal) {
        #expect(ChallengeSeal(metadata: seal.metadata) == seal)
        #expect(ChallengeSeal(privateParameters: seal.privateParameters) == seal)
    }

    @Test("numbers are read as Int64(_:) reads them: a sign is allowed, -0 is 0, and anything out of range is refused")
    func numbers() {
        let accepted: [(step: String, expiresAt: String, seal: ChallengeSeal)] = [
            ("+1", "+1700000180", Self.seal(step: 1)),
            ("-0", "-0", Self.seal(step: 0, expiresAt: 0)),
            ("007", "-9223372036854775808", Self.seal(step: 7, expiresAt: .min)),
            ("9223372036854775807", "9223372036854775807", Self.seal(step: .max, expiresAt: .max)),
        ]
        for (step, expiresAt, seal) in accepted {
            #expect(ChallengeSeal(metadata: "EMAIL_CODE:\(step):\(expiresAt):\(Self.hashText):1a2b3c4d") == seal)
            #expect(ChallengeSeal(privateParameters: Self.parameters(step: step, expiresAt: expiresAt, keyID: "1a2b3c4d")) == seal)
        }
    }

    @Test(
        "fields that are not numbers, a negative step, and numbers out of range are refused in both forms",
        arguments: [
            ("x", "1"), ("-1", "1"), ("", "1"), ("1", ""), ("+", "1"), ("-", "1"), ("1", "+"), ("1", "-"), (" 1", "1"),
            ("1 ", "1"), ("1", "1.0"), ("1", "1e3"), ("٠", "1"), ("１", "1"), ("+-1", "1"), ("--1", "1"),
            ("9223372036854775808", "1"), ("1", "9223372036854775808"), ("1", "-9223372036854775809"),
            ("1", "99999999999999999999"),
        ])
    func badNumbers(step: String, expiresAt: String) {
        #expect(ChallengeSeal(metadata: "EMAIL_CODE:\(step):\(expiresAt):\(Self.hashText)") == nil)
        #expect(ChallengeSeal(privateParameters: Self.parameters(step: step, expiresAt: expiresAt)) == nil)
    }

    @Test("a hash of 64 hexadecimal digits is read in either case; anything else is refused in both forms")
    func hashes() {
        let upper = Self.hashText.uppercased()
        #expect(ChallengeSeal(metadata: "EMAIL_CODE:0:1700000180:\(upper):1a2b3c4d") == Self.seal())
        #expect(ChallengeSeal(privateParameters: Self.parameters(step: "0", expiresAt: "1700000180", hash: upper, keyID: "1a2b3c4d")) == Self.seal())
        let bad = [
            String(Self.hashText.dropLast()), String(Self.hashText.dropLast(2)), Self.hashText + "00", "",
            String(Self.hashText.dropLast()) + "g", String(Self.hashText.dropLast()) + "é", " " + String(Self.hashText.dropLast()),
        ]
        for hash in bad {
            #expect(ChallengeSeal(metadata: "EMAIL_CODE:0:1700000180:\(hash)") == nil, "\(hash)")
            #expect(ChallengeSeal(privateParameters: Self.parameters(step: "0", expiresAt: "1700000180", hash: hash)) == nil)
        }
    }

    @Test(
        "a key id is 8 hexadecimal digits; anything else is refused in both forms",
        arguments: ["", "1a2b3c4", "1a2b3c4d5", "1a2b3c4g", "1a2b 3c4", "1a2b3c4é", "1a:b3c4d", "ｆａｂ３c4d"])
    func badKeyIDs(keyID: String) {
        #expect(ChallengeSeal(metadata: "EMAIL_CODE:0:1700000180:\(Self.hashText):\(keyID)") == nil)
        #expect(ChallengeSeal(privateParameters: Self.parameters(step: "0", expiresAt: "1700000180", keyID: keyID)) == nil)
    }

    @Test(
        "metadata with fewer than four or more than five fields, or an unknown kind, is refused",
        arguments: [
            "", ":", "EMAIL_CODE", "EMAIL_CODE:0", "EMAIL_CODE:0:1700000180",
            "EMAIL_CODE:0:1700000180:\(hashText):1a2b3c4d:",
            "EMAIL_CODE:0:1700000180:\(hashText):1a2b3c4d:1a2b3c4d",
            ":0:1700000180:\(hashText)", "email_code:0:1700000180:\(hashText)", "EMAIL-CODE:0:1700000180:\(hashText)",
            "ÉMAIL:0:1700000180:\(hashText)",
        ])
    func badMetadata(metadata: String) {
        #expect(ChallengeSeal(metadata: metadata) == nil)
    }

    @Test("private parameters without one of their four fields, or with an unknown kind, are refused; other names are ignored")
    func badPrivateParameters() {
        let complete = Self.parameters(step: "0", expiresAt: "1700000180", keyID: "1a2b3c4d")
        #expect(ChallengeSeal(privateParameters: complete) == Self.seal())
        var extra = complete
        extra["challengeUrl"] = "https://example.com/a.png"
        extra["Step"] = "x"
        #expect(ChallengeSeal(privateParameters: extra) == Self.seal())
        for name in ["challenge", "step", "expiresAt", "answerHash"] {
            var missing = complete
            missing[name] = nil
            #expect(ChallengeSeal(privateParameters: missing) == nil, "\(name)")
        }
        var lower = complete
        lower["challenge"] = "email_code"
        #expect(ChallengeSeal(privateParameters: lower) == nil)
    }

    @Test("the answer hash is HMAC-SHA256 over label, kind, step, expiry, pool, user name and answer joined by NUL")
    func answerHash() throws {
        let issued = try Fixture.engine("email-code").create(try Requests.create([]), user: Fixture.jane, now: Fixture.now)
        let code = try #require(issued.delivery?.code)
        let message = "cognito-challenge-runtime/v1\u{0}EMAIL_CODE\u{0}0\u{0}1700000180\u{0}us-east-1_EXAMPLE\u{0}jane\u{0}\(code)"
        #expect(issued.seal.answerHash == HMACSHA256.authenticationCode(key: Fixture.secret, message: message))
        let keyID = HMACSHA256.authenticationCode(key: Fixture.secret, message: "cognito-challenge-runtime/key-id").prefix(4)
        #expect(issued.seal.keyID == Hex.encode(keyID))
    }
}
