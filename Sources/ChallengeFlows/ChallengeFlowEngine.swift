import ChallengeCrypto
import CognitoEvents

/// One CAPTCHA image and the text it shows.
public struct CaptchaEntry: Sendable, Equatable {
    public let imageURL: String
    public let answer: String

    public init(imageURL: String, answer: String) {
        self.imageURL = imageURL
        self.answer = answer
    }
}

/// The Define, Create and Verify decisions for one configured sign-in flow.
///
/// Pure: no I/O. Randomness is injected, the current time is passed in, and a code that must be sent comes back
/// as a ``CodeMessage`` for the caller to deliver.
public struct ChallengeFlowEngine: Sendable {
    public let flow: SignInFlow
    public let policy: ChallengePolicy
    /// When true, codes go only to addresses whose `email_verified` attribute is `"true"`.
    public let requireVerifiedEmail: Bool
    private let keys: ChallengeKeys
    private let random: any RandomSource
    private let captchas: [CaptchaEntry]
    private let captchaWidget: [String: String]?

    /// - Parameters:
    ///   - captchas: the images of a self-hosted CAPTCHA catalog, answered by their text.
    ///   - captchaWidget: instead of a catalog, the public parameters of a CAPTCHA provider's widget (provider, site
    ///     key, action); the client answers with the widget's token, which the caller checks with the provider.
    public init(
        flow: SignInFlow, policy: ChallengePolicy, keys: ChallengeKeys, captchas: [CaptchaEntry] = [],
        captchaWidget: [String: String]? = nil, requireVerifiedEmail: Bool = true,
        random: any RandomSource = SystemRandom()
    ) throws(ConfigurationError) {
        if flow.steps.contains(.captcha) && captchas.isEmpty && captchaWidget == nil {
            throw .missing(
                variable: "CAPTCHA_CATALOG",
                hint: "the flow \"\(flow)\" has a CAPTCHA step; point it at a JSON file of {\"imageURL\", \"answer\"} entries")
        }
        self.flow = flow
        self.policy = policy
        self.keys = keys
        self.requireVerifiedEmail = requireVerifiedEmail
        self.random = random
        self.captchas = captchas
        self.captchaWidget = captchaWidget
    }

    /// An engine whose only key is `secret` (no rotation in progress, decoys derived from `secret`).
    public init(
        flow: SignInFlow, policy: ChallengePolicy, secret: [UInt8], captchas: [CaptchaEntry] = [],
        random: any RandomSource = SystemRandom()
    ) throws(ConfigurationError) {
        try self.init(flow: flow, policy: policy, keys: ChallengeKeys(current: secret), captchas: captchas, random: random)
    }

    // MARK: Define

    /// Chooses the next challenge from the session alone.
    public func define(_ request: DefineAuthChallengeRequest) -> DefineDecision {
        switch FlowProgress(session: request.session, flow: flow, policy: policy) {
        case .awaitingPasswordVerifier: .present(.passwordVerifier)
        case .customStep: .present(.customChallenge)
        case .complete: .issueTokens
        case .failed(let failure): .fail(failure)
        }
    }

    // MARK: Create

    /// Builds the custom challenge that is due. Throws when the session has no custom challenge due, which means
    /// Cognito was not driven by this flow's Define.
    public func create(_ request: CreateAuthChallengeRequest, user: UserIdentity, now: Int64) throws -> IssuedChallenge {
        guard request.challengeName == .customChallenge else { throw CreateChallengeError.notACustomChallenge(request.challengeName) }
        let progress = FlowProgress(session: request.session, flow: flow, policy: policy)
        guard case .customStep(let index, let kind, let attempt, let previousSeal) = progress else {
            throw CreateChallengeError.noCustomStepDue(progress)
        }
        let attemptsLeft = policy.maxAttempts - attempt + 1
        switch kind {
        case .emailCode:
            return try createEmailCode(
                request, user: user, stepIndex: index, attemptsLeft: attemptsLeft, previousSeal: previousSeal, now: now)
        case .captcha:
            return try createCaptcha(user: user, stepIndex: index, attemptsLeft: attemptsLeft, now: now)
        }
    }

    private func createEmailCode(
        _ request: CreateAuthChallengeRequest, user: UserIdentity, stepIndex: Int, attemptsLeft: Int,
        previousSeal: ChallengeSeal?, now: Int64
    ) throws -> IssuedChallenge {
        // A user without a usable address gets exactly what an unknown user gets: a decoy, and nothing sent.
        let address = request.userNotFound
            ? nil : EmailAddressCheck(attributes: request.userAttributes, requireVerified: requireVerifiedEmail)
        let recipient = address?.usableAddress
        let destination = recipient.map(EmailMask.mask) ?? EmailMask.decoy(for: user.userName, key: keys.decoy)

        // After a wrong answer the code already sent stays in force, so the user never holds two codes.
        let seal: ChallengeSeal
        var message: CodeMessage?
        if let previousSeal, previousSeal.expiresAt > now {
            seal = previousSeal
        } else {
            let code = try random.decimalDigits(count: policy.codeLength)
            seal = self.seal(answer: code, kind: .emailCode, stepIndex: stepIndex, user: user, now: now)
            message = recipient.map {
                CodeMessage(recipient: $0, userName: user.userName, code: code, validForSeconds: policy.validitySeconds)
            }
        }
        let publicParameters = [
            "challenge": ChallengeKind.emailCode.rawValue,
            "destination": destination,
            "codeLength": String(policy.codeLength),
            "attemptsLeft": String(attemptsLeft),
            "expiresInSeconds": String(max(0, seal.expiresAt - now)),
        ]
        return IssuedChallenge(
            kind: .emailCode, seal: seal, publicParameters: publicParameters, delivery: message,
            reusedEarlierCode: seal == previousSeal, unusableAddress: address?.problem)
    }

    /// The same challenge answered with `live`, a code sent earlier (in another sign-in) that is still valid:
    /// nothing is sent.
    public func reusing(_ live: ChallengeSeal, for issued: IssuedChallenge, now: Int64) -> IssuedChallenge {
        var publicParameters = issued.publicParameters
        publicParameters["expiresInSeconds"] = String(max(0, live.expiresAt - now))
        return IssuedChallenge(
            kind: issued.kind, seal: live, publicParameters: publicParameters, delivery: nil, reusedEarlierCode: true,
            unusableAddress: issued.unusableAddress)
    }

    /// The same challenge with its code withheld (e.g. by a send throttle): it looks the same, and nothing is sent.
    public func withholding(_ issued: IssuedChallenge) -> IssuedChallenge {
        IssuedChallenge(
            kind: issued.kind, seal: issued.seal, publicParameters: issued.publicParameters, delivery: nil,
            reusedEarlierCode: false, unusableAddress: issued.unusableAddress)
    }

    private func createCaptcha(user: UserIdentity, stepIndex: Int, attemptsLeft: Int, now: Int64) throws -> IssuedChallenge {
        var publicParameters = ["challenge": ChallengeKind.captcha.rawValue, "attemptsLeft": String(attemptsLeft)]
        let sealed: String
        if let captchaWidget {
            // The provider judges the token; the seal only marks the step, over a nonce nobody can answer.
            publicParameters.merge(captchaWidget) { own, _ in own }
            sealed = Hex.encode(try random.bytes(count: 16))
        } else {
            let entry = captchas[Int(try random.uniformInteger(below: UInt32(captchas.count)))]
            publicParameters["captchaUrl"] = entry.imageURL
            sealed = entry.answer
        }
        let seal = self.seal(answer: sealed, kind: .captcha, stepIndex: stepIndex, user: user, now: now)
        return IssuedChallenge(
            kind: .captcha, seal: seal, publicParameters: publicParameters, delivery: nil, reusedEarlierCode: false,
            unusableAddress: nil)
    }

    private func seal(answer: String, kind: ChallengeKind, stepIndex: Int, user: UserIdentity, now: Int64) -> ChallengeSeal {
        let expiresAt = now + Int64(policy.validitySeconds)
        let hash = keys.current.hash(
            normalizedAnswer: AnswerNormalizer.normalize(answer, for: kind), kind: kind, stepIndex: stepIndex,
            expiresAt: expiresAt, user: user)
        return ChallengeSeal(kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, answerHash: hash, keyID: keys.current.keyID)
    }

    // MARK: Verify

    /// Judges an answer against the sealed expectation, in constant time.
    ///
    /// Steps that prove identity (codes) never pass for an unknown user or for a user whose address could not
    /// receive the code; a CAPTCHA is judged on its answer alone for everyone, so that passing it does not tell
    /// real users from unknown ones.
    public func verify(_ request: VerifyAuthChallengeResponseRequest, user: UserIdentity, now: Int64) -> VerifyOutcome {
        guard let seal = ChallengeSeal(privateParameters: request.privateChallengeParameters) else {
            return .notIssuedByThisFlow
        }
        guard let hasher = keys.hasher(forKeyID: seal.keyID) else { return .retiredKey }
        let candidate = hasher.hash(
            normalizedAnswer: AnswerNormalizer.normalize(request.challengeAnswer, for: seal.kind), kind: seal.kind,
            stepIndex: seal.stepIndex, expiresAt: seal.expiresAt, user: user)
        // Compare first, whatever the outcome, so that every path costs the same.
        let matches = constantTimeEquals(candidate, seal.answerHash)
        if seal.kind.provesIdentity {
            if request.userNotFound { return .unknownUser }
            if seal.kind == .emailCode,
               let problem = EmailAddressCheck(attributes: request.userAttributes, requireVerified: requireVerifiedEmail).problem
            {
                return .unusableAddress(problem)
            }
        }
        if seal.expiresAt <= now { return .expired }
        return matches ? .correct : .wrong
    }
}

/// What Define decided.
public enum DefineDecision: Sendable, Equatable, CustomStringConvertible {
    case present(ChallengeName)
    case issueTokens
    case fail(FlowFailure)

    /// The decision in Cognito's terms.
    public var response: DefineAuthChallengeResponse {
        switch self {
        case .present(let name): DefineAuthChallengeResponse(challengeName: name, issueTokens: false, failAuthentication: false)
        case .issueTokens: DefineAuthChallengeResponse(issueTokens: true, failAuthentication: false)
        case .fail: DefineAuthChallengeResponse(issueTokens: false, failAuthentication: true)
        }
    }

    public var description: String {
        switch self {
        case .present(let name): "next challenge \(name)"
        case .issueTokens: "issue tokens"
        case .fail(let failure): "fail authentication (\(failure))"
        }
    }
}

/// A challenge Create built, and the code to send for it, if any. Its description never shows the code.
public struct IssuedChallenge: Sendable, Equatable, CustomStringConvertible {
    public let kind: ChallengeKind
    public let seal: ChallengeSeal
    public let publicParameters: [String: String]
    /// The message to deliver before answering Cognito; nil for CAPTCHAs, unknown users and reused codes.
    public let delivery: CodeMessage?
    /// True when the code sent for an earlier attempt at this step is still in force.
    public let reusedEarlierCode: Bool
    /// Why a real user's code was not sent (treated as an unknown user), if it was not.
    public let unusableAddress: UnusableAddress?

    /// The challenge in Cognito's terms.
    public var response: CreateAuthChallengeResponse {
        CreateAuthChallengeResponse(
            publicChallengeParameters: publicParameters, privateChallengeParameters: seal.privateParameters,
            challengeMetadata: seal.metadata)
    }

    public var description: String {
        let sending = delivery.map { "send \($0)" }
            ?? (reusedEarlierCode ? "earlier code still in force" : unusableAddress.map { "nothing to send: \($0)" } ?? "nothing to send")
        return "\(kind.rawValue) challenge for step \(seal.stepIndex), expires at \(seal.expiresAt); \(sending)"
    }
}

/// What Verify found.
public enum VerifyOutcome: Sendable, Equatable, CustomStringConvertible {
    case correct
    case wrong
    case expired
    /// The user does not exist; every answer to a code is wrong.
    case unknownUser
    /// The user's address could not receive a code; every answer to one is wrong.
    case unusableAddress(UnusableAddress)
    /// The private parameters were not written by this flow.
    case notIssuedByThisFlow
    /// The challenge was sealed with a key that is no longer configured (neither `CODE_HASH_SECRET` nor
    /// `CODE_HASH_SECRET_PREVIOUS`).
    case retiredKey

    public var isCorrect: Bool { self == .correct }

    public var response: VerifyAuthChallengeResponseResponse {
        VerifyAuthChallengeResponseResponse(answerCorrect: isCorrect)
    }

    public var description: String {
        switch self {
        case .correct: "answer correct"
        case .wrong: "answer wrong"
        case .expired: "answer arrived after expiry"
        case .unknownUser: "answer rejected (unknown user)"
        case .unusableAddress(let problem): "answer rejected (no code was sent: \(problem))"
        case .notIssuedByThisFlow: "answer rejected (challenge parameters not issued by this flow)"
        case .retiredKey: "answer rejected (the challenge was sealed with a key that is no longer configured)"
        }
    }
}

/// Why Create could not build a challenge.
public enum CreateChallengeError: Error, Sendable, Equatable, CustomStringConvertible {
    case notACustomChallenge(ChallengeName)
    case noCustomStepDue(FlowProgress)

    public var description: String {
        switch self {
        case .notACustomChallenge(let name):
            "Create Auth Challenge was asked for \"\(name)\", but this function creates only \"CUSTOM_CHALLENGE\"."
        case .noCustomStepDue(let progress):
            "No custom challenge is due for this session (\(progress)); is Define Auth Challenge served by the same flow?"
        }
    }
}
