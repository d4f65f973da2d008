import ChallengeCrypto
import ChallengeFlows
import CognitoChallengeTesting
import LosslessJSON

/// The fixed world the flow tests run in: one clock reading, one secret, one user, one CAPTCHA catalog.
enum Fixture {
    static let now: Int64 = 1_700_000_000
    static let secretText = "fixture-secret-0123456789abcdef-do-not-print"
    static let secret = Array(secretText.utf8)
    static let jane = UserIdentity(userPoolId: "us-east-1_EXAMPLE", userName: "jane")
    static let janeEmail = "jane.doe@example.com"
    static let captchas = [
        CaptchaEntry(imageURL: "https://captcha.example/a1.png", answer: "Kq7 Px"),
        CaptchaEntry(imageURL: "https://captcha.example/b2.png", answer: "zebra42"),
        CaptchaEntry(imageURL: "https://captcha.example/c3.png", answer: "MoonLight"),
        CaptchaEntry(imageURL: "https://captcha.example/d4.png", answer: "x9Y8w7"),
    ]

    static func engine(
        _ flow: String, codeLength: Int = 6, maxAttempts: Int = 3, validitySeconds: Int = 180, seed: UInt64 = 1
    ) throws -> ChallengeFlowEngine {
        try ChallengeFlowEngine(
            flow: SignInFlow(parsing: flow, registry: .builtIn(captchas: captchas)),
            policy: ChallengePolicy(codeLength: codeLength, maxAttempts: maxAttempts, validitySeconds: validitySeconds),
            secret: secret, random: SeededRandom(seed: seed))
    }

    /// A simulator of Cognito driving `engine(flow, …)` for Jane, from ``now``.
    static func simulator(_ flow: String, maxAttempts: Int = 3) throws -> SignInSimulator {
        SignInSimulator(
            engine: try engine(flow, maxAttempts: maxAttempts), user: jane,
            userAttributes: ["sub": "5f1c7e2a", "email_verified": "true", "email": janeEmail], now: now)
    }

    /// The catalog answer behind a CAPTCHA's public image URL.
    static func captchaAnswer(for issued: IssuedChallenge) -> String? {
        captchas.first { $0.imageURL == issued.publicParameters["captchaUrl"] }?.answer
    }

    /// A wrong answer that differs from `code` in every digit.
    static func wrongCode(for code: String) -> String {
        String(code.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
    }
}

/// Builds trigger requests the way Cognito sends them, through the same JSON decoding as real events.
enum Requests {
    static func define(_ session: [SessionEntry], userNotFound: Bool = false) throws -> DefineAuthChallengeRequest {
        try DefineAuthChallengeRequest(
            json: [
                "userAttributes": attributes(email: Fixture.janeEmail, userNotFound: userNotFound),
                "session": .array(session.map(\.json)), "userNotFound": .bool(userNotFound),
            ], path: "$.request")
    }

    static func create(
        _ session: [SessionEntry], email: String? = Fixture.janeEmail, emailVerified: String? = "true",
        userNotFound: Bool = false, challengeName: ChallengeName = .customChallenge, clientMetadata: [String: String]? = nil
    ) throws -> CreateAuthChallengeRequest {
        var members: [(String, JSONValue)] = [
            ("userAttributes", attributes(email: email, emailVerified: emailVerified, userNotFound: userNotFound)),
            ("challengeName", .string(challengeName.rawValue)), ("session", .array(session.map(\.json))),
            ("userNotFound", .bool(userNotFound)),
        ]
        if let clientMetadata { members.append(("clientMetadata", object(clientMetadata))) }
        return try CreateAuthChallengeRequest(json: .object(JSONObject(members)), path: "$.request")
    }

    static func verify(
        _ privateParameters: [String: String], answer: String, email: String? = Fixture.janeEmail,
        emailVerified: String? = "true", userNotFound: Bool = false, clientMetadata: [String: String]? = nil
    ) throws -> VerifyAuthChallengeResponseRequest {
        var members: [(String, JSONValue)] = [
            ("userAttributes", attributes(email: email, emailVerified: emailVerified, userNotFound: userNotFound)),
            ("privateChallengeParameters", object(privateParameters)), ("challengeAnswer", .string(answer)),
            ("userNotFound", .bool(userNotFound)),
        ]
        if let clientMetadata { members.append(("clientMetadata", object(clientMetadata))) }
        return try VerifyAuthChallengeResponseRequest(json: .object(JSONObject(members)), path: "$.request")
    }

    private static func object(_ strings: [String: String]) -> JSONValue {
        .object(JSONObject(strings.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }

    /// Cognito sends no attributes for a user that does not exist.
    private static func attributes(email: String?, emailVerified: String? = "true", userNotFound: Bool) -> JSONValue {
        guard !userNotFound else { return .object(JSONObject()) }
        var members: [(String, JSONValue)] = [("sub", "5f1c7e2a")]
        if let emailVerified { members.append(("email_verified", .string(emailVerified))) }
        if let email { members.append(("email", .string(email))) }
        return .object(JSONObject(members))
    }
}

extension SessionEntry {
    static let srpA = SessionEntry(challengeName: .srpA, challengeResult: true)

    static func passwordVerifier(_ correct: Bool) -> SessionEntry {
        SessionEntry(challengeName: .passwordVerifier, challengeResult: correct)
    }

    /// A custom challenge answered for `kind` at `step`, with metadata as this package writes it.
    static func custom(_ kind: ChallengeKind, step: Int = 0, correct: Bool, expiresAt: Int64 = Fixture.now + 180)
        -> SessionEntry
    {
        let seal = ChallengeSeal(
            kind: kind, stepIndex: step, expiresAt: expiresAt, answerHash: [UInt8](repeating: 0xA5, count: 32), keyID: "0a1b2c3d")
        return SessionEntry(challengeName: .customChallenge, challengeResult: correct, challengeMetadata: seal.metadata)
    }
}
