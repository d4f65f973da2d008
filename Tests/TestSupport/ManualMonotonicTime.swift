import Platform

/// A monotonic clock that moves only when told to, and a pause that moves it instead of sleeping and records how
/// long it was asked to wait: what a test injects where code times itself or waits, so that no test waits for real
/// or asserts a wall-clock figure.
public final class ManualMonotonicTime: Sendable {
    private struct State {
        var elapsed: Duration = .zero
        var pauses: [Duration] = []
    }

    private let origin = MonotonicInstant.now
    private let state = PosixLock(State())

    public init() {}

    /// Moves the clock on.
    public func advance(by duration: Duration) {
        state.withLock { $0.elapsed += duration }
    }

    /// The pauses asked for so far, in order.
    public var pauses: [Duration] { state.withLock { $0.pauses } }

    /// How far the clock has moved.
    public var elapsed: Duration { state.withLock { $0.elapsed } }

    /// The clock and pause to inject.
    public var time: MonotonicTime {
        MonotonicTime(
            now: { self.origin + self.elapsed },
            pause: { duration in
                self.state.withLock { state in
                    state.pauses.append(duration)
                    state.elapsed += max(duration, .zero)
                }
            })
    }
}
