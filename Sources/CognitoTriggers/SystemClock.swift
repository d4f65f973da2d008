#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock, as Unix seconds.
public enum SystemClock {
    @Sendable public static func unixSeconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec)
    }
}

/// How long deliveries typically take (a moving average), so that a sign-in for an unknown user can take as long
/// as one for a real user.
struct DeliveryTimeEstimate {
    private var average: Duration = .zero
    private var samples = 0

    mutating func record(_ duration: Duration) {
        samples += 1
        // A plain mean for the first few samples, then an exponential moving average that follows changes.
        let weight = max(1.0 / Double(samples), 0.2)
        average = average * (1 - weight) + duration * weight
    }

    /// Sleeps for the current estimate (nothing before the first delivery).
    func waitTypicalDuration() {
        guard average > .zero else { return }
        let (seconds, attoseconds) = average.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var unslept = timespec()
        while nanosleep(&remaining, &unslept) != 0 && errno == EINTR {
            remaining = unslept
        }
    }
}
