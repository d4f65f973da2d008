import Foundation
@testable import Invoker
import TestSupport
import Testing

/// `BootstrapTransport` returns an answered invocation only once the bootstrap has asked for its next event, so what
/// it writes after delivering its answer (its summary line, its metric line) is written by then. The stand-ins get a
/// limit far over what they need, or far under it, and what must not hang fails by the test's time limit instead of
/// a measured duration, so that a loaded machine's timing (a full test run starts many processes at once) cannot
/// change the outcome.
@Suite("BootstrapTransport waits for the bootstrap's next request")
struct BootstrapTransportTests {
    @Test("the real bootstrap has asked for its next event whenever invoke returns, and its metric lines still arrive")
    func realBootstrapAskedAgain() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let configuration = try LocalConfiguration(processEnvironment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
        let transport = BootstrapTransport(settings: BootstrapSettings(
            path: try BuiltProducts.executable("bootstrap"), environment: configuration.environment, capturesMetrics: true,
            nextRequestLimit: .seconds(60)))
        let events = ["01-define-start", "02-create-code", "04-verify-wrong-code"]
        for (index, name) in events.enumerated() {
            let invocation = try await transport.invoke(
                Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path("Events/email-code/\(name).json")))))
            // Its first request when it started, then one after each answer.
            #expect(transport.emulator.nextRequestCount == index + 2, "after \(name)")
            guard case .response = invocation.outcome else {
                Issue.record("\(name): \(invocation.outcome)")
                continue
            }
            #expect(invocation.metrics?.hasPrefix(#"{"_aws""#) == true, "\(name): \(invocation.metrics ?? "no metric line")")
        }
        await transport.shutdown()
    }

    @Test("a bootstrap that asks again half a second after its answer is waited for", .requires(.python3))
    func waitsForALateRequest() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let transport = try Self.transport(StandIn.answersOneEventThen("sleep 0.5"), in: scratch, limit: .seconds(60))
        let started = ContinuousClock.now
        let invocation = try await transport.invoke(Array("{}".utf8))
        #expect(invocation.outcome == .response(Array("{}".utf8)))
        #expect(transport.emulator.nextRequestCount == 2)
        #expect(started.duration(to: .now) >= .milliseconds(500))
        await transport.shutdown()
    }

    /// The stand-in sleeps for ten minutes: waiting for it instead of the 300 ms bound would overrun the time limit.
    @Test("a bootstrap that never asks again costs one bounded wait, not a hang", .requires(.python3), .timeLimit(.minutes(3)))
    func boundedWaitForABootstrapThatNeverAsks() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let transport = try Self.transport(StandIn.answersOneEventThen("sleep 600"), in: scratch, limit: .milliseconds(300))
        let started = ContinuousClock.now
        let invocation = try await transport.invoke(Array("{}".utf8))
        #expect(invocation.outcome == .response(Array("{}".utf8)))
        #expect(transport.emulator.nextRequestCount == 1)
        #expect(started.duration(to: .now) >= .milliseconds(300))
        await transport.shutdown()
    }

    /// Its bound is an hour: only the exit can end the wait within the time limit.
    @Test("a bootstrap that exits after its answer ends the wait at once", .requires(.python3), .timeLimit(.minutes(3)))
    func exitEndsTheWait() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let transport = try Self.transport(StandIn.answersOneEventThen("exit 0"), in: scratch, limit: .seconds(3600))
        let invocation = try await transport.invoke(Array("{}".utf8))
        #expect(invocation.outcome == .response(Array("{}".utf8)))
        await transport.shutdown()
    }

    static func transport(_ script: String, in scratch: ScratchDirectory, limit: Duration) throws -> BootstrapTransport {
        BootstrapTransport(settings: BootstrapSettings(
            path: try scratch.write("bootstrap", script, executable: true), environment: [:], nextRequestLimit: limit))
    }
}
