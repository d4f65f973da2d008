import Basics
import Foundation
import Invoker
import LambdaRuntime
import Platform
import Testing

/// `LambdaContext.afterDelivery`: work that runs once the answer is delivered and before the next event is taken.
@Suite(.serialized)
struct AfterDeliveryTests {
    struct Refused: LambdaReportableError, CustomStringConvertible {
        var errorType: String { "Function.Refused" }
        var description: String { "refused" }
    }

    /// What the handlers and their follow-up work saw, in order.
    final class Record: Sendable {
        private let entries = PosixLock<[String]>([])
        private let answered = PosixLock<Set<String>>([])

        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
        func markAnswered(_ event: String) { answered.withLock { _ = $0.insert(event) } }

        /// Waits up to thirty seconds (a loaded machine may be slow to resume the test) for the test to have received
        /// the answer to `event`. Work run before the answer was sent would hold the answer back, and the test's
        /// `invoke`, which gives up after a few seconds, would fail.
        func waitUntilAnswered(_ event: String) -> Bool {
            for _ in 0..<3_000 {
                if answered.withLock({ $0.contains(event) }) { return true }
                usleep(10_000)
            }
            return false
        }
    }

    @Test("work left by a handler runs after its response or error reached the Runtime API, before the next event")
    func runsAfterTheAnswer() async throws {
        let record = Record()
        try await withEmulator { emulator, address in
            _ = LoopThread(address: address) { event, context in
                let name = String(decoding: event, as: UTF8.self)
                record.add("handle \(name)")
                context.afterDelivery {
                    record.add("after \(name): answer \(record.waitUntilAnswered(name) ? "seen" : "not seen")")
                    // Work left by work runs before the next event too.
                    context.afterDelivery { record.add("then \(name)") }
                }
                if name == "fail" { throw Refused() }
                return event
            }
            for name in ["one", "fail", "two"] {
                let result = try #require(await invoke(emulator, Array(name.utf8)))
                record.markAnswered(name)
                if name == "fail" {
                    guard case .functionError(let error) = result.outcome else { Issue.record("\(result.outcome)"); return }
                    #expect(error.errorType == "Function.Refused")
                } else {
                    #expect(result.outcome == .response(Array(name.utf8)))
                }
            }
            // The last follow-up runs before the loop asks for another event: wait for it.
            for _ in 0..<3_000 where record.all.count < 9 { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(record.all == [
            "handle one", "after one: answer seen", "then one", "handle fail", "after fail: answer seen", "then fail",
            "handle two", "after two: answer seen", "then two",
        ])
    }

    @Test("a context made outside the runtime loop runs the work at once")
    func handMadeContextRunsAtOnce() {
        let ran = PosixLock(false)
        let context = LambdaContext(
            requestID: "test", deadlineMilliseconds: 0, invokedFunctionARN: "", logger: LambdaLogger(minimumLevel: .fatal))
        context.afterDelivery { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }
}
