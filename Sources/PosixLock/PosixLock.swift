#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// State guarded by a POSIX mutex: the one lock every module of this package uses.
///
/// Not `Synchronization.Mutex`: on Linux that mutex waits on a futex directly, which ThreadSanitizer cannot see, so
/// every use of the state it guards from two threads is reported as a race and the sanitizer run fails at random.
/// ThreadSanitizer intercepts `pthread_mutex_lock`, and an uncontended lock costs the same.
public final class PosixLock<State>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var state: State

    /// A lock guarding `state`.
    public init(_ state: State) {
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
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
