import DevelopmentSupport
import Invoker
import Synchronization
import TestSupport

/// A clock a test moves by hand, starting at the corpus's time.
final class TestClock: Sendable {
    let seconds = Atomic<Int64>(CorpusEvent.now)
    func advance(_ by: Int64) { seconds.add(by, ordering: .relaxed) }
    var read: @Sendable () -> Int64 { { self.seconds.load(ordering: .relaxed) } }
}
