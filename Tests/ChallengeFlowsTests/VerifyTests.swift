import ChallengeCrypto
import ChallengeFlows
import Testing

@Suite("Verify: keyed hashes compared in constant time")
struct VerifyTests {
    private let engine: ChallengeFlowEngine
    private let issued: IssuedChallenge
    private let code: String

    init() throws {
        engine = try Fixture.engine("email-code")
        issued = try engine.create(Requests.create([]), user: Fixture.jane, now: Fixture.now)
        code = try #require(issued.delivery?.code)
    }

    private func verify(
        _ answer: String, parameters: [String: String]? = nil, user: UserIdentity = Fixture.jane,
        userNotFound: Bool = false, now: Int64 = Fixture.now + 10, engine: ChallengeFlowEngine? = nil
    ) throws -> VerifyOutcome {
        try (engine ?? self.engine).verify(
            Requests.verify(parameters ?? issued.seal.privateParameters, answer: answer, userNotFound: userNotFound),
            user: user, now: now)
    }

    @Test("the right code is correct")
    func rightCode() throws {
        let outcome = try verify(code)
        #expect(outcome == .correct)
        #expect(outcome.isCorrect)
        #expect(outcome.response == VerifyAuthChallengeResponseResponse(answerCorrect: true))
    }

    @Test("a wrong code is wrong")
    func wrongCode() throws {
        for answer in [Fixture.wrongCode(for: code), String(code.dropLast()), code + "0", "", "abcdef"] {
            let outcome = try verify(answer)
            #expect(outcome == .wrong, "\(answer.count) characters")
            #expect(outcome.response == VerifyAuthChallengeResponseResponse(answerCorrect: false))
        }
    }

    @Test("white space around and inside the code is ignored")
    func whitespace() throws {
        let spaced = code.prefix(3) + " " + code.dropFirst(3)
        for answer in [" \(code)", "\(code)\n", "\t\(spaced) ", String(spaced), code.map(String.init).joined(separator: " ")] {
            #expect(try verify(answer) == .correct)
        }
    }

    @Test("a CAPTCHA answer is compared without regard to case or spaces")
    func captchaCase() throws {
        let captchaEngine = try Fixture.engine("captcha")
        let captcha = try captchaEngine.create(Requests.create([]), user: Fixture.jane, now: Fixture.now)
        let answer = try #require(Fixture.captchaAnswer(for: captcha))
        for typed in [answer, answer.uppercased(), answer.lowercased(), " " + answer.filter { $0 != " " } + " "] {
            #expect(try verify(typed, parameters: captcha.seal.privateParameters, engine: captchaEngine) == .correct)
        }
        #expect(try verify(answer + "x", parameters: captcha.seal.privateParameters, engine: captchaEngine) == .wrong)
    }

    @Test("an email code is not case-folded into something else")
    func codeNotLowercased() throws {
        // Digits have no case; the point is that the kind drives normalisation, which the hash binds.
        #expect(try verify(code.uppercased()) == .correct)
    }

    @Test("an answer at or after expiry is expired, even when right")
    func expired() throws {
        let expiresAt = issued.seal.expiresAt
        #expect(try verify(code, now: expiresAt - 1) == .correct)
        #expect(try verify(code, now: expiresAt) == .expired)
        #expect(try verify(code, now: expiresAt + 3_600) == .expired)
        #expect(try verify(Fixture.wrongCode(for: code), now: expiresAt) == .expired)
        #expect(try verify(code, now: expiresAt).isCorrect == false)
    }

    @Test("an unknown user is never correct, even with the right code")
    func userNotFound() throws {
        let ghost = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost")
        let decoy = try Fixture.engine("email-code", seed: 77).create(
            Requests.create([], email: nil, userNotFound: true), user: ghost, now: Fixture.now)
        #expect(decoy.delivery == nil)
        // A fresh source with the same seed predicts the code that was sealed but never sent.
        let sealedCode = try SeededRandom(seed: 77).decimalDigits(count: 6)
        let parameters = decoy.seal.privateParameters
        #expect(try verify(sealedCode, parameters: parameters, user: ghost, userNotFound: true) == .unknownUser)
        // Without the flag the same answer would match: the rejection is the flag's doing, not a bad seal.
        #expect(try verify(sealedCode, parameters: parameters, user: ghost) == .correct)
        #expect(try verify(code, userNotFound: true) == .unknownUser)
        #expect(VerifyOutcome.unknownUser.response.answerCorrect == false)
    }

    @Test("private parameters from elsewhere are not accepted", arguments: [
        ["answer": "1234"],
        [:],
        ["challenge": "EMAIL_CODE", "step": "0", "expiresAt": "1700000180"],
        ["challenge": "EMAIL_CODE", "step": "0", "expiresAt": "1700000180", "answerHash": "1234"],
        ["challenge": "SMS", "step": "0", "expiresAt": "1700000180", "answerHash": String(repeating: "ab", count: 32)],
        ["challenge": "EMAIL_CODE", "step": "x", "expiresAt": "1700000180", "answerHash": String(repeating: "ab", count: 32)],
    ])
    func foreignParameters(parameters: [String: String]) throws {
        let outcome = try verify("1234", parameters: parameters)
        #expect(outcome == .notIssuedByThisFlow)
        #expect(outcome.isCorrect == false)
        #expect(outcome.response.answerCorrect == false)
    }

    @Test("a seal does not verify for another user, pool, step, kind or expiry")
    func hashBinding() throws {
        #expect(try verify(code, user: UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "john")) == .wrong)
        #expect(try verify(code, user: UserIdentity(userPoolId: "eu-west-1_OTHER", userName: "jane")) == .wrong)

        var otherStep = issued.seal.privateParameters
        otherStep["step"] = "1"
        #expect(try verify(code, parameters: otherStep) == .wrong)

        var otherKind = issued.seal.privateParameters
        otherKind["challenge"] = ChallengeKind.captcha.rawValue
        // A flow that also has a CAPTCHA step judges the relabelled seal as a CAPTCHA: the kind is in the hash.
        #expect(try verify(code, parameters: otherKind, engine: Fixture.engine("captcha-email-code")) == .wrong)
        // A flow without one did not issue it at all.
        #expect(try verify(code, parameters: otherKind) == .notIssuedByThisFlow)

        var extended = issued.seal.privateParameters
        extended["expiresAt"] = String(issued.seal.expiresAt + 3_600)
        #expect(try verify(code, parameters: extended, now: issued.seal.expiresAt + 10) == .wrong)
    }

    static let otherSecret = Array("another-secret-of-more-than-32-bytes!".utf8)

    @Test("a seal made with a key that is not configured does not verify, with or without its key id")
    func otherSecret() throws {
        let otherEngine = try ChallengeFlowEngine(
            flow: engine.flow, policy: engine.policy, secret: Self.otherSecret, random: SeededRandom(seed: 1))
        #expect(try verify(code, engine: otherEngine) == .retiredKey)
        var withoutKeyID = issued.seal.privateParameters
        withoutKeyID["keyId"] = nil
        #expect(try verify(code, parameters: withoutKeyID, engine: otherEngine) == .wrong)
    }

    @Test("during a rotation, seals of the previous key still verify; after it they are refused")
    func rotation() throws {
        let rotated = try ChallengeFlowEngine(
            flow: engine.flow, policy: engine.policy,
            keys: ChallengeKeys(current: Self.otherSecret, previous: Fixture.secret), random: SeededRandom(seed: 1))
        #expect(try verify(code, engine: rotated) == .correct)
        #expect(try verify(Fixture.wrongCode(for: code), engine: rotated) == .wrong)
        var forgedKeyID = issued.seal.privateParameters
        forgedKeyID["keyId"] = "00000000"
        #expect(try verify(code, parameters: forgedKeyID, engine: rotated) == .retiredKey)

        let afterRotation = try ChallengeFlowEngine(
            flow: engine.flow, policy: engine.policy, keys: ChallengeKeys(current: Self.otherSecret),
            random: SeededRandom(seed: 1))
        #expect(try verify(code, engine: afterRotation) == .retiredKey)
    }

    @Test("a code answered by a user whose address is unusable never verifies, even when right")
    func unusableAddress() throws {
        let request = try Requests.verify(issued.seal.privateParameters, answer: code, emailVerified: "false")
        #expect(engine.verify(request, user: Fixture.jane, now: Fixture.now) == .unusableAddress(.notVerified))
        let noEmail = try Requests.verify(issued.seal.privateParameters, answer: code, email: nil)
        #expect(engine.verify(noEmail, user: Fixture.jane, now: Fixture.now) == .unusableAddress(.noEmail))
    }

    @Test("upper-case hex in the parameters reads as the same seal")
    func upperCaseHex() throws {
        var parameters = issued.seal.privateParameters
        parameters["answerHash"] = parameters["answerHash"]?.uppercased()
        #expect(try verify(code, parameters: parameters) == .correct)
    }
}
