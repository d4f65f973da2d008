#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocking pauses for the single-threaded runtime (no async machinery in the function).
public enum Pause {
    /// Sleeps for `duration`, resuming after signals until the whole duration has passed.
    public static func sleep(_ duration: Duration) {
        guard duration > .zero else { return }
        let (seconds, attoseconds) = duration.components
        var remaining = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var unslept = timespec()
        while nanosleep(&remaining, &unslept) != 0 && errno == EINTR {
            remaining = unslept
        }
    }
}
