import ChallengeCrypto

/// One CAPTCHA image and the text it shows.
public struct CaptchaEntry: Sendable, Equatable {
    /// Where the client loads the image; it must not give the answer away.
    public let imageURL: String
    /// The text the image shows.
    public let answer: String

    /// An image and its answer.
    public init(imageURL: String, answer: String) {
        self.imageURL = imageURL
        self.answer = answer
    }
}

/// A CAPTCHA (`captcha`, kind `CAPTCHA`): an image from a self-hosted catalog answered by its text, or a provider's
/// widget answered by a token that the caller checks with the provider.
///
/// It proves that a human is there, not who: it is judged on its answer alone for everyone, so that passing it
/// does not tell real users from unknown ones.
public struct CaptchaStep: ChallengeStep {
    /// Where the CAPTCHAs come from.
    public enum Source: Sendable, Equatable {
        /// Images of a self-hosted catalog, answered by their text (case and white space do not matter).
        case catalog([CaptchaEntry])
        /// The public parameters of a provider's widget (provider, site key, action); the client answers with the
        /// widget's token, which the caller checks with the provider (the seal holds only a nonce).
        case widget([String: String])
    }

    /// Where the CAPTCHAs come from.
    public let source: Source

    /// `captcha`.
    public var name: String { "captcha" }
    /// `CAPTCHA`.
    public var kind: ChallengeKind { .captcha }
    /// Anyone can solve a CAPTCHA.
    public var provesIdentity: Bool { false }

    /// A CAPTCHA step with the given source.
    public init(source: Source) {
        self.source = source
    }

    /// Refuses an empty catalog.
    public func checkConfiguration(in flow: SignInFlow) throws(ConfigurationError) {
        guard case .catalog(let entries) = source, entries.isEmpty else { return }
        throw .missing(
            variable: "CAPTCHA_CATALOG",
            hint: "the flow \"\(flow)\" has a CAPTCHA step; point it at a JSON file of {\"imageURL\", \"answer\"} entries")
    }

    /// A random catalog image, or the widget's parameters.
    public func create(_ context: StepContext) throws -> StepChallenge {
        switch source {
        case .widget(let parameters):
            return StepChallenge(publicParameters: parameters, sealing: .nonce)
        case .catalog(let entries):
            let entry = entries[Int(try context.random.uniformInteger(below: UInt32(entries.count)))]
            return StepChallenge(publicParameters: ["captchaUrl": entry.imageURL], sealing: .answer(entry.answer))
        }
    }

    /// Drops white space and letter case.
    public func normalize(_ answer: String) -> String {
        Self.normalize(answer)
    }

    /// The catalog's text for the image shown; nil for a widget.
    public func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? {
        guard case .catalog(let entries) = source else { return nil }
        return entries.first { $0.imageURL == publicParameters["captchaUrl"] }?.answer
    }

    /// A CAPTCHA answer without white space, in lower case.
    public static func normalize(_ answer: String) -> String {
        answer.removingWhitespace().lowercased()
    }
}
