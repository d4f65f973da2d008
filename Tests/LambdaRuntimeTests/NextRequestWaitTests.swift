import Basics
import Foundation
import Invoker
import LambdaRuntime
import Platform
import Testing

/// `RuntimeAPIEmulator.nextRequest(after:)`: waiting for the runtime's next `GET next`.
@Suite(.serialized)
struct NextRequestWaitTests {
    @Test("a wait ends when the runtime asks again after the invocation, once the work left after its answer is done")
    func endsAtTheNextRequest() async throws {
        let followUpDone = PosixLock(false)
        try await withEmulator { emulator, address in
            let started = Task { await emulator.nextRequest(after: 0) }
            _ = LoopThread(address: address) { event, context in
                context.afterDelivery {
                    usleep(200_000)
                    followUpDone.withLock { $0 = true }
                }
                return event
            }
            #expect(await started.value)
            #expect(emulator.nextRequestCount == 1)
            let result = try #require(await invoke(emulator, Array("{}".utf8)))
            #expect(result.outcome == .response(Array("{}".utf8)))
            #expect(result.nextRequestCount == 1)
            #expect(await emulator.nextRequest(after: result.nextRequestCount))
            #expect(followUpDone.withLock { $0 })
            #expect(emulator.nextRequestCount == 2)
            // A count already passed does not wait.
            #expect(await emulator.nextRequest(after: 1))
        }
    }

    @Test("shutting down ends the waits with false, those to come too")
    func shutdownEndsTheWait() async throws {
        let emulator = RuntimeAPIEmulator()
        try await emulator.start()
        let waiting = Task { await emulator.nextRequest(after: 0) }
        try await Task.sleep(for: .milliseconds(50))
        await emulator.shutdown()
        #expect(await waiting.value == false)
        #expect(await emulator.nextRequest(after: 0) == false)
    }

    @Test("cancelling the waiting task ends its wait with false, and a later request does not touch it")
    func cancellationEndsTheWait() async throws {
        try await withEmulator { emulator, address in
            let waiting = Task { await emulator.nextRequest(after: 0) }
            try await Task.sleep(for: .milliseconds(50))
            waiting.cancel()
            #expect(await waiting.value == false)
            // A task cancelled before it waits does not wait.
            let cancelledFirst = Task {
                try? await Task.sleep(for: .seconds(30))
                return await emulator.nextRequest(after: 0)
            }
            cancelledFirst.cancel()
            #expect(await cancelledFirst.value == false)
            _ = LoopThread(address: address) { event, _ in event }
            #expect(await emulator.nextRequest(after: 0))
        }
    }
}
