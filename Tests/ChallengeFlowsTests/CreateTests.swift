import ChallengeCrypto
import ChallengeFlows
import Testing

@Suite("Create: the challenge, the code to send, and nothing that gives the answer away")
struct CreateTests {
    static let emailCodeKeys: Set = ["challenge", "destination", "codeLength", "attemptsLeft", "expiresInSeconds"]

    private func issue(
        _ flow: String = "email-code", session: [SessionEntry] = [], codeLength: Int = 6, seed: UInt64 = 1,
        email: String? = Fixture.janeEmail, emailVerified: String? = "true", userNotFound: Bool = false,
        user: UserIdentity = Fixture.jane, now: Int64 = Fixture.now
    ) throws -> IssuedChallenge {
        try Fixture.engine(flow, codeLength: codeLength, seed: seed).create(
            Requests.create(session, email: email, emailVerified: emailVerified, userNotFound: userNotFound), user: user,
            now: now)
    }

    @Test("the code has the configured number of digits, and nothing else", arguments: [6, 10])
    func codeLength(length: Int) throws {
        for seed in UInt64(1)...20 {
            let issued = try issue(codeLength: length, seed: seed)
            let code = try #require(issued.delivery?.code)
            #expect(code.count == length)
            #expect(code.allSatisfy { $0.isASCII && $0.isNumber })
            #expect(issued.publicParameters["codeLength"] == String(length))
        }
    }

    @Test("the code comes from the injected random source")
    func codeFromRandomSource() throws {
        let expected = try SeededRandom(seed: 42).decimalDigits(count: 6)
        #expect(try issue(seed: 42).delivery?.code == expected)
        #expect(try issue(seed: 42).delivery?.code == issue(seed: 42).delivery?.code)
        #expect(try issue(seed: 42).delivery?.code != issue(seed: 43).delivery?.code)
    }

    @Test("public parameters tell where the code went and how many attempts are left")
    func publicParameters() throws {
        let issued = try issue()
        #expect(Set(issued.publicParameters.keys) == Self.emailCodeKeys)
        #expect(issued.publicParameters["challenge"] == "EMAIL_CODE")
        #expect(issued.publicParameters["destination"] == "j***@e***.com")
        #expect(issued.publicParameters["attemptsLeft"] == "3")
        #expect(issued.publicParameters["expiresInSeconds"] == "180")
        #expect(issued.kind == .emailCode)
        #expect(issued.reusedEarlierCode == false)
        #expect(issued.seal == ChallengeSeal(
            kind: .emailCode, stepIndex: 0, expiresAt: Fixture.now + 180, answerHash: issued.seal.answerHash,
            keyID: issued.seal.keyID))
        #expect(issued.seal.keyID?.count == 8)
        #expect(issued.response.privateChallengeParameters?["keyId"] == issued.seal.keyID)
    }

    @Test("public parameters hold no code, no hash and no secret")
    func publicParametersHoldNoSecrets() throws {
        for seed in UInt64(1)...20 {
            let issued = try issue(seed: seed)
            let code = try #require(issued.delivery?.code)
            let hash = Hex.encode(issued.seal.answerHash)
            for value in issued.publicParameters.values {
                #expect(!value.contains(code))
                #expect(!value.contains(hash.prefix(16)))
                #expect(!value.contains(Fixture.secretText))
            }
        }
    }

    @Test("private parameters and metadata hold a keyed hash, never the code")
    func privateParametersHoldNoCode() throws {
        for seed in UInt64(1)...20 {
            let issued = try issue(seed: seed)
            let code = try #require(issued.delivery?.code)
            let response = issued.response
            let privateParameters = try #require(response.privateChallengeParameters)
            let metadata = try #require(response.challengeMetadata)
            for value in privateParameters.values + [metadata] {
                #expect(!value.contains(code), "seed \(seed)")
                #expect(!value.contains(Fixture.secretText))
            }
            // The hash is keyed: the plain SHA-256 of the code is not what is stored.
            #expect(!metadata.contains(Hex.encode(SHA256.hash(code))))
            #expect(ChallengeSeal(metadata: metadata) == issued.seal)
            #expect(ChallengeSeal(privateParameters: privateParameters) == issued.seal)
            #expect(response.publicChallengeParameters == issued.publicParameters)
        }
    }

    @Test("the message to deliver carries the code, the address and the validity")
    func message() throws {
        let issued = try issue()
        let message = try #require(issued.delivery)
        #expect(message.recipient == Fixture.janeEmail)
        #expect(message.userName == "jane")
        #expect(message.validForSeconds == 180)
        #expect(message.code.count == 6)
    }

    @Test("after a wrong answer the earlier code stays in force and nothing is sent again")
    func reuseAfterWrongAnswer() throws {
        let first = try issue()
        let wrong = SessionEntry(
            challengeName: .customChallenge, challengeResult: false, challengeMetadata: first.response.challengeMetadata)
        let second = try issue(session: [wrong], seed: 99, now: Fixture.now + 30)
        #expect(second.seal == first.seal)
        #expect(second.delivery == nil)
        #expect(second.reusedEarlierCode)
        #expect(second.publicParameters["attemptsLeft"] == "2")
        #expect(second.publicParameters["expiresInSeconds"] == "150")
        #expect(second.response.privateChallengeParameters == first.response.privateChallengeParameters)
        #expect(second.response.challengeMetadata == first.response.challengeMetadata)

        let third = try issue(session: [wrong, wrong], seed: 7, now: Fixture.now + 60)
        #expect(third.seal == first.seal)
        #expect(third.publicParameters["attemptsLeft"] == "1")
    }

    @Test("an expired earlier code is replaced by a fresh one, which is sent", arguments: [Int64(0), 1, 500])
    func freshCodeAfterExpiry(secondsPastExpiry: Int64) throws {
        let first = try issue()
        let wrong = SessionEntry(
            challengeName: .customChallenge, challengeResult: false, challengeMetadata: first.response.challengeMetadata)
        let later = first.seal.expiresAt + secondsPastExpiry
        let second = try issue(session: [wrong], seed: 99, now: later)
        let message = try #require(second.delivery)
        #expect(message.code != first.delivery?.code)
        #expect(second.reusedEarlierCode == false)
        #expect(second.seal.expiresAt == later + 180)
        #expect(second.seal != first.seal)
        #expect(second.publicParameters["attemptsLeft"] == "2")
        #expect(second.publicParameters["expiresInSeconds"] == "180")
    }

    @Test("a CAPTCHA comes from the catalog; its answer appears nowhere but in a keyed hash")
    func captcha() throws {
        var chosen: Set<String> = []
        for seed in UInt64(1)...20 {
            let issued = try issue("captcha", seed: seed)
            #expect(issued.kind == .captcha)
            #expect(issued.delivery == nil)
            #expect(Set(issued.publicParameters.keys) == ["challenge", "captchaUrl", "attemptsLeft"])
            #expect(issued.publicParameters["challenge"] == "CAPTCHA")
            let answer = try #require(Fixture.captchaAnswer(for: issued))
            chosen.insert(answer)
            let response = issued.response
            let exposed = Array(issued.publicParameters.values) + Array(response.privateChallengeParameters?.values ?? [:].values)
                + [response.challengeMetadata ?? ""]
            for value in exposed {
                for spelling in [answer, answer.lowercased(), answer.uppercased(), answer.filter { $0 != " " }.lowercased()] {
                    #expect(!value.contains(spelling))
                }
            }
        }
        // The pick is random, not always the first entry.
        #expect(chosen.count > 1)
    }

    @Test("the catalog pick follows the injected random source")
    func captchaPickFromRandomSource() throws {
        let expected = try SeededRandom(seed: 5).uniformInteger(below: UInt32(Fixture.captchas.count))
        #expect(try issue("captcha", seed: 5).publicParameters["captchaUrl"] == Fixture.captchas[Int(expected)].imageURL)
    }

    @Test("each step of a composition is sealed with its own index and kind")
    func compositionSteps() throws {
        let captcha = try issue("captcha-email-code")
        #expect(captcha.seal.kind == .captcha)
        #expect(captcha.seal.stepIndex == 0)
        let passed = SessionEntry(
            challengeName: .customChallenge, challengeResult: true, challengeMetadata: captcha.response.challengeMetadata)
        let code = try issue("captcha-email-code", session: [passed])
        #expect(code.seal.kind == .emailCode)
        #expect(code.seal.stepIndex == 1)
        #expect(code.delivery != nil)
        #expect(code.publicParameters["attemptsLeft"] == "3")
    }

    @Test("after SRP the email code is the first custom step")
    func afterSRP() throws {
        let issued = try issue("srp-email-code", session: [.srpA, .passwordVerifier(true)])
        #expect(issued.seal.stepIndex == 0)
        #expect(issued.delivery?.recipient == Fixture.janeEmail)
    }

    @Test("an unknown user gets the same public parameter keys and value shapes, and nothing is sent", arguments: [
        "ghost", "ghost@example.org", "5f1c7e2a-0000-4000-8000-000000000000",
    ])
    func userNotFound(userName: String) throws {
        let ghost = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: userName)
        let real = try issue()
        let decoy = try issue(email: nil, userNotFound: true, user: ghost)
        #expect(decoy.delivery == nil)
        #expect(Set(decoy.publicParameters.keys) == Set(real.publicParameters.keys))
        for key in ["challenge", "codeLength", "attemptsLeft", "expiresInSeconds"] {
            #expect(decoy.publicParameters[key] == real.publicParameters[key], "\(key)")
        }
        let destination = try #require(decoy.publicParameters["destination"])
        let shape = /[^@*]\*\*\*@[^@*.]\*\*\*\.[a-z]+/
        #expect(destination.wholeMatch(of: shape) != nil, "\(destination)")
        #expect(try #require(real.publicParameters["destination"]).wholeMatch(of: shape) != nil)
        #expect(Set(decoy.response.privateChallengeParameters?.keys ?? [:].keys) == Set(real.response.privateChallengeParameters?.keys ?? [:].keys))
        #expect(decoy.response.challengeMetadata?.split(separator: ":").count == 5)
    }

    @Test("an unknown user's decoy destination is the same on every call")
    func stableDecoy() throws {
        let ghost = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost")
        let destinations = try (UInt64(1)...5).map { seed in
            try issue(email: nil, userNotFound: true, user: ghost, now: Fixture.now + Int64(seed) * 7)
                .publicParameters["destination"]
        }
        #expect(Set(destinations).count == 1)
        let other = try issue(email: nil, userNotFound: true, user: UserIdentity(userPoolId: "p", userName: "someone-else"))
        #expect(other.publicParameters["destination"] != nil)
    }

    @Test("an email-shaped unknown user name is masked as an email address")
    func emailShapedDecoy() throws {
        let ghost = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost.user@example.org")
        let decoy = try issue(email: nil, userNotFound: true, user: ghost)
        #expect(decoy.publicParameters["destination"] == "g***@e***.org")
    }

    @Test("an unknown user's code is still sealed, so Verify costs the same")
    func userNotFoundStillSealed() throws {
        let ghost = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "ghost")
        let decoy = try issue(email: nil, userNotFound: true, user: ghost)
        #expect(decoy.seal.answerHash.count == 32)
        #expect(decoy.response.privateChallengeParameters?["answerHash"]?.count == 64)
    }

    /// Compared with an unknown user who typed the real user's address, as in a pool where users sign in by email
    /// (Cognito's user name of a real user is then an internal id): both are shown that address masked.
    @Test(
        "a real user without a usable address gets exactly an unknown user's challenge, and nothing is sent",
        arguments: [(nil, "true"), ("", "true"), (Fixture.janeEmail, nil), (Fixture.janeEmail, "false"), (Fixture.janeEmail, "TRUE")]
            as [(String?, String?)])
    func noUsableAddress(email: String?, verified: String?) throws {
        let withheld = try issue(email: email, emailVerified: verified)
        let typed = email.flatMap { $0.isEmpty ? nil : UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: $0) }
        let unknown = try issue(email: nil, userNotFound: true, user: typed ?? Fixture.jane)
        #expect(withheld.delivery == nil)
        #expect(withheld.unusableAddress == (email?.isEmpty ?? true ? .noEmail : .notVerified))
        #expect(withheld.publicParameters == unknown.publicParameters)
        #expect(Set(withheld.response.privateChallengeParameters?.keys ?? [:].keys)
            == Set(unknown.response.privateChallengeParameters?.keys ?? [:].keys))
        #expect(!"\(withheld)".contains("jane.doe"))
    }

    @Test("an unverified address receives codes when REQUIRE_VERIFIED_EMAIL is off")
    func unverifiedAllowed() throws {
        let engine = try ChallengeFlowEngine(
            flow: SignInFlow(parsing: "email-code", registry: .builtIn(requireVerifiedEmail: false)), policy: ChallengePolicy(),
            keys: ChallengeKeys(current: Fixture.secret), random: SeededRandom(seed: 1))
        let issued = try engine.create(
            Requests.create([], emailVerified: "false"), user: Fixture.jane, now: Fixture.now)
        #expect(issued.delivery?.recipient == Fixture.janeEmail)
        #expect(issued.unusableAddress == nil)
    }

    @Test("masks are lower case for real and unknown users alike, whatever case was typed")
    func masksIgnoreCase() throws {
        let real = try issue(email: "Jane.Doe@Example.COM")
        let typed = UserIdentity(userPoolId: Fixture.jane.userPoolId, userName: "Ghost.User@Example.COM")
        let unknown = try issue(email: nil, userNotFound: true, user: typed)
        #expect(real.publicParameters["destination"] == "j***@e***.com")
        #expect(unknown.publicParameters["destination"] == "g***@e***.com")
    }

    @Test("Create when no custom challenge is due is an error", arguments: [
        ("email-code", [SessionEntry.custom(.emailCode, correct: true)], FlowProgress.complete),
        ("email-code", [.custom(.emailCode, correct: false)] + [.custom(.emailCode, correct: false)] + [.custom(.emailCode, correct: false)],
         .failed(.tooManyWrongAnswers(.emailCode))),
        ("srp-email-code", [.srpA], .awaitingPasswordVerifier),
        ("srp-email-code", [], .failed(.passwordStepMissing)),
        ("email-code", [.srpA], .failed(.unexpectedChallenge(.srpA, position: 0))),
    ])
    func noCustomStepDue(flow: String, session: [SessionEntry], progress: FlowProgress) throws {
        let error = try #require(throws: CreateChallengeError.self) { try issue(flow, session: session) }
        #expect(error == .noCustomStepDue(progress))
        #expect(error.description.hasPrefix("No custom challenge is due"))
        #expect(!error.description.contains("failed("), "no internal enum text: \(error)")
    }

    @Test("Create for anything but CUSTOM_CHALLENGE is an error")
    func notCustom() throws {
        let engine = try Fixture.engine("email-code")
        let request = try Requests.create([], challengeName: ChallengeName(rawValue: "SMS_MFA"))
        let error = try #require(throws: CreateChallengeError.self) {
            try engine.create(request, user: Fixture.jane, now: Fixture.now)
        }
        #expect(error == .notACustomChallenge(ChallengeName(rawValue: "SMS_MFA")))
        #expect(error.description.contains("SMS_MFA"))
    }
}
