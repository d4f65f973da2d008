/// The outcome of checking one CAPTCHA token: the answer to a Verify Auth Challenge.
public enum CaptchaVerdict: Sendable, Equatable {
    /// The provider vouched for the token, for an allowed hostname and action, recently, with a high enough score.
    case passed
    /// The token does not prove a person solved this site's CAPTCHA just now, or it could not be checked.
    case rejected(CaptchaRejection)

    /// True for ``passed``: the answer to give Cognito.
    public var isPassed: Bool { self == .passed }
}

/// Why a token was not accepted. Descriptions are one sentence for the logs: they quote what the provider reported
/// but never the token or the secret (``SiteverifyClient`` masks both in anything the provider echoes).
public enum CaptchaRejection: Sendable, Equatable, CustomStringConvertible {
    /// The token is empty, or longer than any provider issues; it was not sent.
    case unusableToken(length: Int)
    /// The provider answered `success: false`, with these `error-codes` (`timeout-or-duplicate` for a used or
    /// expired token, `invalid-input-response` for a forged one).
    case providerError(codes: [String])
    /// The widget ran on a page whose hostname is not in `CAPTCHA_ALLOWED_HOSTNAMES` (nil: none was reported).
    case hostnameNotAllowed(String?)
    /// The widget's action is not `CAPTCHA_ACTION` (nil: none was reported).
    case actionMismatch(expected: String, received: String?)
    /// reCAPTCHA v3 rated the interaction as more likely a bot than `RECAPTCHA_MIN_SCORE` allows.
    case scoreTooLow(score: Double, minimum: Double)
    /// The answer has no `challenge_ts`, so its age cannot be checked.
    case missingTimestamp
    /// The challenge was solved longer ago than the provider's token lifetime.
    case stale(ageSeconds: Int64, lifetimeSeconds: Int64)
    /// The challenge's `challenge_ts` lies further in the future than clock drift explains.
    case timestampAhead(seconds: Int64)
    /// No HTTP exchange happened: nothing listens, the name does not resolve, TLS failed.
    case unreachable(endpoint: String, reason: String)
    /// No answer within the configured time budget.
    case timedOut(budget: Duration)
    /// The provider answered with a status other than 2xx.
    case httpStatus(Int)
    /// The answer is not the JSON the provider documents.
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .unusableToken(let length):
            return length == 0
                ? "The CAPTCHA token is empty."
                : "The CAPTCHA token is \(length) bytes long, longer than any provider issues, so it was not sent."
        case .providerError(let codes):
            return codes.isEmpty
                ? "The CAPTCHA service refused the token without error codes."
                : "The CAPTCHA service refused the token with error codes \(codes.map { "\"\($0)\"" }.joined(separator: ", "))."
        case .hostnameNotAllowed(let hostname?):
            return "The CAPTCHA was solved on \"\(hostname)\", which is not an allowed hostname."
        case .hostnameNotAllowed(nil):
            return "The CAPTCHA service reported no hostname, so the page that showed the widget is unknown."
        case .actionMismatch(let expected, let received?):
            return "The CAPTCHA's action is \"\(received)\", not \"\(expected)\"."
        case .actionMismatch(let expected, nil):
            return "The CAPTCHA service reported no action; expected \"\(expected)\"."
        case .scoreTooLow(let score, let minimum):
            return "The reCAPTCHA score \(score) is below the minimum of \(minimum)."
        case .missingTimestamp:
            return "The CAPTCHA service's answer has no challenge_ts, so the token's age is unknown."
        case .stale(let age, let lifetime):
            return "The CAPTCHA was solved \(age) s ago, longer than the token lifetime of \(lifetime) s."
        case .timestampAhead(let seconds):
            return "The CAPTCHA's challenge_ts lies \(seconds) s in the future."
        case .unreachable(let endpoint, let reason):
            return "Could not reach the CAPTCHA service at \"\(endpoint)\": \(reason.hasSuffix(".") ? reason.dropLast() : reason[...])."
        case .timedOut(let budget):
            let (seconds, attoseconds) = budget.components
            return "The CAPTCHA service did not answer within the \(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms budget."
        case .httpStatus(let status):
            return "The CAPTCHA service answered with HTTP status \(status)."
        case .malformedResponse(let reason):
            return "The CAPTCHA service's answer is malformed: \(reason)."
        }
    }
}
