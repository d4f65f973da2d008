#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State guarded by a POSIX mutex.
///
/// The HMAC contexts use this rather than `Synchronization.Mutex`: on Linux that mutex waits on a futex directly,
/// which ThreadSanitizer does not see, so every use of the state it guards from two threads was reported as a race.
/// ThreadSanitizer intercepts `pthread_mutex_lock`, and an uncontended lock costs the same.
final class PthreadLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the state while holding the lock.
    func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
