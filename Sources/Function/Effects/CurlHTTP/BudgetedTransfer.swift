import Basics
import Platform

/// How a request sent within a time budget ended (``CurlSession/perform(_:within:connectTimeout:isRetryable:)``).
public enum BudgetedOutcome: Sendable {
    /// The server answered with a 2xx status.
    case succeeded(HTTPResponse, attempts: Int)
    /// The server answered with another status, and it was not retried (not retryable, already retried, or too
    /// little of the budget left).
    case refused(HTTPResponse, attempts: Int)
    /// The budget ran out during a transfer.
    case timedOut(attempts: Int)
    /// The transfer failed otherwise (nothing listening, TLS, a reset connection).
    case failed(CurlError, attempts: Int)
}

extension CurlSession {
    /// A retry starts only with at least this much of the budget left.
    static let minimumRetryTime = Duration.milliseconds(500)
    /// The random pause before a retry, in milliseconds.
    static let retryPause = 20...150

    /// Sends `request` so that it ends, answered or not, within `budget`: each attempt gets what is left of it (and
    /// at most `connectTimeout` to connect), and an answer that `isRetryable` accepts (throttling, 5xx) is sent
    /// again once, after a short random pause, only while enough of the budget remains for another attempt.
    public func perform(
        _ request: HTTPRequest, within budget: Duration, connectTimeout: Duration,
        isRetryable: (HTTPResponse) -> Bool
    ) -> BudgetedOutcome {
        let deadline = MonotonicInstant.now + budget
        var request = request
        var attempts = 0
        while true {
            attempts += 1
            let remaining = deadline - .now
            request.totalTimeout = remaining
            request.connectTimeout = min(connectTimeout, remaining)
            let response: HTTPResponse
            do {
                response = try perform(request)
            } catch where error.kind == .timedOut && deadline - .now < .milliseconds(20) {
                return .timedOut(attempts: attempts)
            } catch {
                return .failed(error, attempts: attempts)
            }
            if (200..<300).contains(response.status) { return .succeeded(response, attempts: attempts) }
            let pause = Duration.milliseconds(Int.random(in: Self.retryPause))
            guard attempts == 1, isRetryable(response), deadline - .now - pause >= Self.minimumRetryTime else {
                return .refused(response, attempts: attempts)
            }
            Pause.sleep(pause)
        }
    }
}
