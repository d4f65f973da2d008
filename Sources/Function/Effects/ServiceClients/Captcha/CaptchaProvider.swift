/// A CAPTCHA service whose widget tokens ``SiteverifyClient`` checks with the service's `siteverify` API.
public enum CaptchaProvider: String, Sendable, Equatable, CaseIterable {
    /// Cloudflare Turnstile.
    case turnstile
    /// Google reCAPTCHA, v2 (checkbox or invisible) and v3 (score-based).
    case recaptcha
    /// hCaptcha.
    case hcaptcha

    /// The provider's `siteverify` URL.
    public var defaultEndpoint: String {
        switch self {
        case .turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify"
        case .recaptcha: "https://www.google.com/recaptcha/api/siteverify"
        case .hcaptcha: "https://api.hcaptcha.com/siteverify"
        }
    }

    /// How long a token stays valid after its challenge was solved: an answer whose `challenge_ts` is older is stale.
    public var tokenLifetimeSeconds: Int64 {
        switch self {
        case .turnstile: 300
        case .recaptcha: 120
        case .hcaptcha: 120
        }
    }

    /// Whether the provider reports the widget's action (Turnstile always, reCAPTCHA v3), so that
    /// `CAPTCHA_ACTION` can be checked.
    public var reportsAction: Bool { self != .hcaptcha }

    /// Whether a `siteverify` call takes an `idempotency_key` that lets the same token be checked again.
    public var acceptsIdempotencyKey: Bool { self == .turnstile }

    /// Whether a `siteverify` call takes the `sitekey` the token was issued for (and then refuses tokens of others).
    public var acceptsSiteKey: Bool { self == .hcaptcha }
}
