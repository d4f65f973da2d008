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
///
/// The state lives in memory of its own rather than in a stored property, and `withLock` is inlinable: a caller's
/// lock is specialised for its state, and handing the state to `body` needs no dynamic exclusivity check (the mutex
/// already gives that exclusivity).
public final class PosixLock<State>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    @usableFromInline let state: UnsafeMutablePointer<State>

    /// A lock guarding `state`.
    public init(_ state: State) {
        self.state = .allocate(capacity: 1)
        self.state.initialize(to: state)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Runs `body` on the state while holding the lock.
    @inlinable
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
