import ChallengeFlows
import EmailDelivery
import LosslessJSON

/// Everything the triggers need, read once from the environment at start-up.
public struct TriggerConfiguration: Sendable {
    /// Where codes go.
    public enum Delivery: Sendable, Equatable {
        /// A local JSON-lines file (development, tests, the invoker).
        case outbox(path: String)
        /// Amazon SES (v2 `SendEmail`), configured by the `SES_*`, `EMAIL_*` and AWS variables.
        case ses(SESConfiguration)
    }

    public let flow: SignInFlow
    public let policy: ChallengePolicy
    public let delivery: Delivery
    public let captchas: [CaptchaEntry]
    let secret: [UInt8]

    public static let defaultOutboxPath = "/tmp/cognito-challenge-outbox.jsonl"

    /// Reads the configuration; every problem is reported with the variable to fix.
    public init(environment: [String: String]) throws(ConfigurationError) {
        flow = try SignInFlow(parsing: environment["CHALLENGE_FLOW"] ?? "email-code")
        policy = try ChallengePolicy(
            codeLength: try Self.integer("CODE_LENGTH", in: environment, default: 6),
            maxAttempts: try Self.integer("MAX_ATTEMPTS", in: environment, default: 3),
            validitySeconds: try Self.integer("CODE_TTL_SECONDS", in: environment, default: 180))
        guard let secret = environment["CODE_HASH_SECRET"], !secret.isEmpty else {
            throw .missing(
                variable: "CODE_HASH_SECRET",
                hint: "set it to at least 32 bytes of random text (e.g. `openssl rand -hex 32`); it keys the answer hashes")
        }
        self.secret = Array(secret.utf8)
        switch environment["CODE_DELIVERY"] ?? "outbox" {
        case "outbox":
            delivery = .outbox(path: environment["OUTBOX_PATH"] ?? Self.defaultOutboxPath)
        case "ses":
            do {
                delivery = .ses(try SESConfiguration(environment: environment))
            } catch {
                throw .delivery(variable: error.variable, problem: error.problem)
            }
        case let other:
            throw .invalid(variable: "CODE_DELIVERY", value: other, expected: "outbox or ses")
        }
        if let catalogPath = environment["CAPTCHA_CATALOG"], !catalogPath.isEmpty {
            captchas = try CaptchaCatalog.load(path: catalogPath)
        } else {
            captchas = []
        }
    }

    /// The decision engine this configuration describes.
    public func makeEngine() throws(ConfigurationError) -> ChallengeFlowEngine {
        try ChallengeFlowEngine(flow: flow, policy: policy, secret: secret, captchas: captchas)
    }

    private static func integer(_ variable: String, in environment: [String: String], default value: Int) throws(ConfigurationError) -> Int {
        guard let text = environment[variable] else { return value }
        guard let number = Int(text) else { throw .invalid(variable: variable, value: text, expected: "a whole number") }
        return number
    }
}

/// Reads CAPTCHA images and answers from a JSON file: `[{"imageURL": "https://…", "answer": "w7xq"}, …]`.
public enum CaptchaCatalog {
    public static func load(path: String) throws(ConfigurationError) -> [CaptchaEntry] {
        func invalid(_ reason: String) -> ConfigurationError {
            .invalid(variable: "CAPTCHA_CATALOG", value: path, expected: "a readable JSON catalog (\(reason))")
        }
        let elements: [JSONValue]
        do {
            elements = try LocalFile.nonEmptyJSONArray(at: path)
        } catch {
            throw invalid(error.reason)
        }
        var entries: [CaptchaEntry] = []
        for (position, element) in elements.enumerated() {
            guard let imageURL = element.objectValue?["imageURL"]?.stringValue,
                  let answer = element.objectValue?["answer"]?.stringValue, !answer.isEmpty
            else { throw invalid("entry \(position) needs string fields imageURL and answer") }
            entries.append(CaptchaEntry(imageURL: imageURL, answer: answer))
        }
        return entries
    }
}

extension TriggerConfiguration {
    /// The delivery this configuration names.
    func makeDelivery(clock: @escaping @Sendable () -> Int64) throws(ConfigurationError) -> any CodeDelivery {
        switch delivery {
        case .outbox(let path):
            return OutboxDelivery(path: path, clock: clock)
        case .ses(let configuration):
            do {
                return try SESCodeDelivery(configuration: configuration)
            } catch {
                throw .delivery(variable: "SES_ENDPOINT", problem: "cannot be used: \(error)")
            }
        }
    }
}
