/// The monotonic clock a component times itself with and the pause it waits with, as one value: the system's in
/// the function, a clock that a test moves (and that records the pauses asked of it) in tests.
public struct MonotonicTime: Sendable {
    /// Reads the clock.
    public let now: @Sendable () -> MonotonicInstant
    /// Waits for a duration.
    public let pause: @Sendable (Duration) -> Void

    public init(now: @escaping @Sendable () -> MonotonicInstant, pause: @escaping @Sendable (Duration) -> Void) {
        self.now = now
        self.pause = pause
    }

    /// `CLOCK_MONOTONIC` and `nanosleep`.
    public static let system = MonotonicTime(now: { .now }, pause: { Pause.sleep($0) })
}
