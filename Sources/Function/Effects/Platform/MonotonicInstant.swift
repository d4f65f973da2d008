#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A reading of the monotonic clock (`CLOCK_MONOTONIC`), for time budgets and timings.
///
/// `ContinuousClock` would do the same, but it lives in Swift Concurrency, which brings its runtime and libdispatch
/// into the function binary; the runtime loop and everything it calls are synchronous.
public struct MonotonicInstant: Comparable, Sendable {
    private let nanoseconds: Int64

    /// Now.
    public static var now: MonotonicInstant {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// The time from this instant to `later`.
    public func duration(to later: MonotonicInstant) -> Duration {
        .nanoseconds(later.nanoseconds - nanoseconds)
    }

    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (seconds, attoseconds) = duration.components
        return MonotonicInstant(nanoseconds: instant.nanoseconds + seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public static func - (later: MonotonicInstant, earlier: MonotonicInstant) -> Duration {
        earlier.duration(to: later)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }
}
