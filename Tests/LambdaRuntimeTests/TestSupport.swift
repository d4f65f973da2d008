import Foundation
import Invoker
import LambdaRuntime
import Basics
import Platform

/// Runs `body`, giving up (and cancelling it) after `limit`; nil when time ran out.
func within<T: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
    }
}

/// A started emulator, shut down after `body`.
func withEmulator<T>(_ body: (RuntimeAPIEmulator, String) async throws -> T) async throws -> T {
    let emulator = RuntimeAPIEmulator()
    let address = try await emulator.start()
    do {
        let result = try await body(emulator, address)
        await emulator.shutdown()
        return result
    } catch {
        await emulator.shutdown()
        throw error
    }
}

/// A handler made of a closure.
struct ClosureHandler: LambdaHandler {
    let answer: @Sendable ([UInt8], LambdaContext) throws -> [UInt8]

    func handle(_ event: [UInt8], context: LambdaContext) throws -> [UInt8] {
        try answer(event, context)
    }
}

/// `LambdaRuntime.serve` on a thread of its own, as the blocking loop needs.
final class LoopThread: Sendable {
    private let ending = PosixLock<RuntimeExit?>(nil)

    init(address: String, makeHandler: @escaping @Sendable () throws -> ClosureHandler) {
        let configuration = RuntimeConfiguration(runtimeAPI: address, logger: LambdaLogger(minimumLevel: .fatal))
        let thread = Thread { [self] in
            let result = LambdaRuntime.serve(configuration: configuration) { _ in try makeHandler() }
            ending.withLock { $0 = result }
        }
        thread.start()
    }

    convenience init(address: String, answer: @escaping @Sendable ([UInt8], LambdaContext) throws -> [UInt8]) {
        self.init(address: address) { ClosureHandler(answer: answer) }
    }

    /// How the loop ended, or nil if it is still running after `limit`.
    func exit(within limit: Duration = .seconds(5)) async throws -> RuntimeExit? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let result = ending.withLock({ $0 }) { return result }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

/// A JSON event of `count` bytes or so, as bytes.
func event(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The Runtime API emulator's `invoke`, bounded so that a broken runtime fails the test instead of hanging it.
func invoke(
    _ emulator: RuntimeAPIEmulator, _ event: [UInt8], timeout: Duration = .seconds(3), traceID: String? = nil,
    clientContext: String? = nil, cognitoIdentity: String? = nil
) async throws -> InvocationResult? {
    try await within(timeout + .seconds(2)) {
        await emulator.invoke(
            event, timeout: timeout, traceID: traceID, clientContext: clientContext, cognitoIdentity: cognitoIdentity)
    }
}
