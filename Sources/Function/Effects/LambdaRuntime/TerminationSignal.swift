import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Remembers that SIGTERM arrived, so that the loop finishes the invocation in flight and then stops.
enum TerminationSignal {
    private static let received = Atomic<Bool>(false)

    static var isReceived: Bool { received.load(ordering: .relaxed) }

    /// Replaces SIGTERM's default action (ending the process at once) with setting the flag, and unblocks SIGTERM in
    /// case the parent process started this one with it blocked.
    static func install() {
        _ = isReceived  // initializes the flag here, never inside the signal handler
        signal(SIGTERM) { _ in TerminationSignal.received.store(true, ordering: .relaxed) }
        var terminate = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &terminate, nil)
    }
}
