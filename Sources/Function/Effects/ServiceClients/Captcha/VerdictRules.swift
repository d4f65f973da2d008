extension CaptchaProviderConfiguration {
    /// How far `challenge_ts` may lie ahead of the caller's clock before it is refused.
    static let allowedClockDriftSeconds: Int64 = 60

    /// Judges a `siteverify` answer: passed only when the provider vouched for the token, on an allowed hostname,
    /// with the configured action, a high enough reCAPTCHA score and a `challenge_ts` within the token's lifetime.
    /// - Parameter now: Unix seconds.
    func verdict(for answer: SiteverifyAnswer, now: Int64, mask: ProviderTextMask) -> CaptchaVerdict {
        guard answer.success else {
            return .rejected(.providerError(codes: answer.errorCodes.map(mask.apply)))
        }
        guard let hostname = answer.hostname, allowedHostnames.contains(hostname.lowercased()) else {
            return .rejected(.hostnameNotAllowed(answer.hostname.map(mask.apply)))
        }
        if let action, answer.action != action {
            return .rejected(.actionMismatch(expected: action, received: answer.action.map(mask.apply)))
        }
        if provider == .recaptcha, let score = answer.score, score < minimumScore {
            return .rejected(.scoreTooLow(score: score, minimum: minimumScore))
        }
        guard let timestamp = answer.challengeTimestamp else {
            return .rejected(.missingTimestamp)
        }
        guard let solved = ISO8601Time.unixSeconds(timestamp) else {
            return .rejected(.malformedResponse("\"challenge_ts\" is not an ISO 8601 time"))
        }
        let age = now - solved
        if age > provider.tokenLifetimeSeconds {
            return .rejected(.stale(ageSeconds: age, lifetimeSeconds: provider.tokenLifetimeSeconds))
        }
        if -age > Self.allowedClockDriftSeconds {
            return .rejected(.timestampAhead(seconds: -age))
        }
        return .passed
    }
}
