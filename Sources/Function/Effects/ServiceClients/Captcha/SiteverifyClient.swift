import Basics
import CurlHTTP
import Platform

/// Checks CAPTCHA widget tokens with the provider's `siteverify` API over one kept-alive libcurl connection.
///
/// Each check ends, passed or rejected, within the configuration's time budget. Nothing is retried: tokens are single
/// use, so a second attempt after an unknown outcome would only be refused as a duplicate. Not thread-safe: one
/// owner at a time, as with the `CurlSession` it holds.
public final class SiteverifyClient {
    /// The provider, keys and checks this client applies.
    public let configuration: CaptchaProviderConfiguration
    private let session: CurlSession

    /// The longest token sent; providers issue tokens of a few kilobytes at most.
    public static let maximumTokenLength = 16_384

    /// Sets up the libcurl handle that every check reuses; throws only when libcurl cannot start.
    public init(configuration: CaptchaProviderConfiguration) throws(CurlError) {
        self.configuration = configuration
        session = try CurlSession(caFile: configuration.caFile)
    }

    /// Checks one token.
    /// - Parameters:
    ///   - token: what the widget produced (the challenge answer); used up by this call.
    ///   - idempotencyKey: sent to Turnstile only (see ``CaptchaIdempotencyKey``): the same key lets the same token be
    ///     checked again, so that a retried Verify Auth Challenge gets the same verdict instead of a duplicate error.
    ///   - remoteIP: the user's IP address, when known; the provider may compare it with the solver's.
    ///   - now: Unix seconds, to judge the age of the challenge.
    public func verify(token: String, idempotencyKey: String?, remoteIP: String? = nil, now: Int64) -> CaptchaVerdict {
        let length = token.utf8.count
        guard length > 0, length <= Self.maximumTokenLength else {
            return .rejected(.unusableToken(length: length))
        }
        let mask = ProviderTextMask(token: token, secret: configuration.secret.value)
        let start = MonotonicInstant.now
        let response: HTTPResponse
        do {
            response = try session.perform(request(token: token, idempotencyKey: idempotencyKey, remoteIP: remoteIP))
        } catch where error.kind == .timedOut && MonotonicInstant.now - start >= configuration.timeBudget - .milliseconds(20) {
            return .rejected(.timedOut(budget: configuration.timeBudget))
        } catch {
            return .rejected(.unreachable(endpoint: configuration.endpoint, reason: mask.apply(error.message)))
        }
        guard (200..<300).contains(response.status) else {
            return .rejected(.httpStatus(response.status))
        }
        do {
            return configuration.verdict(for: try SiteverifyAnswer(parsing: response.body), now: now, mask: mask)
        } catch {
            return .rejected(.malformedResponse(error.reason))
        }
    }

    /// The form-encoded POST for one token, with the whole budget as its timeout.
    private func request(token: String, idempotencyKey: String?, remoteIP: String?) -> HTTPRequest {
        var fields: [(name: String, value: String)] = [("secret", configuration.secret.value), ("response", token)]
        if let remoteIP { fields.append(("remoteip", remoteIP)) }
        if configuration.provider.acceptsSiteKey { fields.append(("sitekey", configuration.siteKey)) }
        if configuration.provider.acceptsIdempotencyKey, let idempotencyKey { fields.append(("idempotency_key", idempotencyKey)) }
        return HTTPRequest(
            method: .post, url: configuration.endpoint,
            headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")], body: FormEncoding.encode(fields),
            connectTimeout: configuration.connectTimeout, totalTimeout: configuration.timeBudget)
    }
}
