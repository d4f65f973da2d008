import Dispatch
import Foundation
import Platform

/// Returns when SIGINT or SIGTERM arrives.
func waitForTermination() async {
    let signals = [SIGINT, SIGTERM]
    for signal in signals { Foundation.signal(signal, SIG_IGN) }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let once = OnceFlag()
        let sources = signals.map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
        for source in sources {
            source.setEventHandler {
                guard once.claim() else { return }
                sources.forEach { $0.cancel() }
                done.resume()
            }
            source.resume()
        }
    }
}

/// True for the first caller of ``claim()`` only.
private final class OnceFlag: Sendable {
    private let claimed = PosixLock(false)

    func claim() -> Bool {
        claimed.withLock { wasClaimed in defer { wasClaimed = true }; return !wasClaimed }
    }
}
