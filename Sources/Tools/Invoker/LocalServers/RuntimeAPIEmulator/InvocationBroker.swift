import Basics
import NIOCore
import Platform

/// Pairs invocations from `invoke` callers with the runtime's `GET next` requests, one at a time, and tracks each
/// invocation until its answer, its timeout, or shutdown; counts the `GET next` requests, for callers that wait for
/// the runtime's next one. All state sits behind one lock; continuations and promises are completed outside it.
final class InvocationBroker: Sendable {
    /// An invocation waiting for, or handed to, the runtime.
    struct Invocation: Sendable {
        let requestID: String
        let event: [UInt8]
        let timeout: Duration
        let headers: [(String, String)]
        let caller: CheckedContinuation<InvocationResult, Never>

        /// Ends the invocation; `nextRequests` is the count of `GET next` requests when it ended.
        func end(_ outcome: InvocationOutcome, runtimeDuration: Duration? = nil, nextRequests: Int) {
            caller.resume(
                returning: InvocationResult(
                    requestID: requestID, outcome: outcome, runtimeDuration: runtimeDuration, nextRequestCount: nextRequests))
        }
    }

    /// What a `GET next` gets: an invocation now, or a future one.
    enum NextAnswer {
        case invocation(Invocation)
        case wait(EventLoopFuture<Invocation>)
    }

    private struct Running {
        let invocation: Invocation
        var sentAt: ContinuousClock.Instant?
        var timer: Scheduled<Void>?
    }

    private struct ParkedNext {
        let channel: ObjectIdentifier
        let promise: EventLoopPromise<Invocation>
    }

    /// A caller waiting for the count of `GET next` requests to pass `count`.
    private struct NextWaiter {
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var queue: [Invocation] = []
        var parked: ParkedNext?
        var running: [String: Running] = [:]
        var faults: [RuntimeEndpoint: InjectedFault] = [:]
        var start: RuntimeStart?
        var startWaiters: [Int: CheckedContinuation<RuntimeStart, any Error>] = [:]
        var nextRequests = 0
        var nextWaiters: [Int: NextWaiter] = [:]
        /// Set by ``abandonAll()``: waits for a `GET next` end at once.
        var closed = false
        var nextTicket = 0
    }

    private let state = PosixLock(State())

    /// Queues an invocation, or hands it straight to a waiting `GET next`. Called from the caller's task: when that
    /// task is already cancelled, the invocation ends as abandoned at once.
    func enqueue(_ invocation: Invocation) {
        enum Placement { case handed(ParkedNext), queued, cancelled(nextRequests: Int) }
        let placement = state.withLock { state -> Placement in
            guard !Task.isCancelled else { return .cancelled(nextRequests: state.nextRequests) }
            guard let parked = state.parked else {
                state.queue.append(invocation)
                return .queued
            }
            state.parked = nil
            state.running[invocation.requestID] = Running(invocation: invocation)
            return .handed(parked)
        }
        switch placement {
        case .handed(let parked): parked.promise.succeed(invocation)
        case .queued: break
        case .cancelled(let nextRequests): invocation.end(.abandoned, nextRequests: nextRequests)
        }
    }

    /// The caller gave up: the invocation ends as abandoned, and a late answer from the runtime is refused.
    func cancel(_ requestID: String) {
        let (invocation, nextRequests) = state.withLock { state -> (Invocation?, Int) in
            if let index = state.queue.firstIndex(where: { $0.requestID == requestID }) {
                return (state.queue.remove(at: index), state.nextRequests)
            }
            let running = state.running.removeValue(forKey: requestID)
            running?.timer?.cancel()
            return (running?.invocation, state.nextRequests)
        }
        invocation?.end(.abandoned, nextRequests: nextRequests)
    }

    /// The runtime asks for an invocation on this channel.
    func next(channel: ObjectIdentifier, eventLoop: any EventLoop) -> NextAnswer {
        let (answer, previous, started, asked) = state.withLock { state in
            let started = state.start == nil ? Self.settle(&state, .ready(.now)) : nil
            state.nextRequests += 1
            let asks = state.nextRequests
            let asked = Self.takeNextWaiters(&state) { $0.count < asks }
            guard state.queue.isEmpty else {
                let invocation = state.queue.removeFirst()
                state.running[invocation.requestID] = Running(invocation: invocation)
                return (NextAnswer.invocation(invocation), ParkedNext?.none, started, asked)
            }
            let previous = state.parked
            let promise = eventLoop.makePromise(of: Invocation.self)
            state.parked = ParkedNext(channel: channel, promise: promise)
            return (NextAnswer.wait(promise.futureResult), previous, started, asked)
        }
        previous?.promise.fail(ChannelError.ioOnClosedChannel)
        started?.deliver()
        for waiter in asked { waiter.resume(returning: true) }
        return answer
    }

    /// How many `GET next` requests the runtime has made.
    var nextRequestCount: Int {
        state.withLock { $0.nextRequests }
    }

    /// Waits until the count of `GET next` requests passes `count`: true then; false when ``abandonAll()`` (before
    /// or during the wait) or the waiting task's cancellation comes first.
    func nextRequest(after count: Int) async -> Bool {
        let ticket = state.withLock { state in
            state.nextTicket += 1
            return state.nextTicket
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let known = state.withLock { state -> Bool? in
                    if state.nextRequests > count { return true }
                    if state.closed || Task.isCancelled { return false }
                    state.nextWaiters[ticket] = NextWaiter(count: count, continuation: continuation)
                    return nil
                }
                if let known { continuation.resume(returning: known) }
            }
        } onCancel: {
            state.withLock { $0.nextWaiters.removeValue(forKey: ticket) }?.continuation.resume(returning: false)
        }
    }

    /// The invocation's event is being written to the runtime: its clock starts. Returns its deadline, in
    /// milliseconds since the Unix epoch.
    func markSent(_ invocation: Invocation, on eventLoop: any EventLoop) -> Int64 {
        let deadline = WallClock.millisecondsSinceEpoch() + Int64(invocation.timeout / .milliseconds(1))
        let timer = eventLoop.scheduleTask(in: TimeAmount(invocation.timeout)) { [self] () -> Void in
            finish(invocation.requestID, with: .timedOut, onlyIfSent: true)
        }
        state.withLock { state in
            state.running[invocation.requestID]?.sentAt = .now
            state.running[invocation.requestID]?.timer = timer
        }
        return deadline
    }

    /// The event could not be written (the runtime went away): the invocation waits for the next `GET next`.
    func requeue(_ requestID: String) {
        state.withLock { state in
            guard let running = state.running.removeValue(forKey: requestID) else { return }
            running.timer?.cancel()
            state.queue.insert(running.invocation, at: 0)
        }
    }

    /// Ends a running invocation; false when no invocation with this id is running.
    @discardableResult
    func finish(_ requestID: String, with outcome: InvocationOutcome, onlyIfSent: Bool = false) -> Bool {
        let finishedAt = ContinuousClock.now
        let (running, nextRequests) = state.withLock { state -> (Running?, Int) in
            guard let running = state.running[requestID], !onlyIfSent || running.sentAt != nil else {
                return (nil, state.nextRequests)
            }
            state.running[requestID] = nil
            return (running, state.nextRequests)
        }
        guard let running else { return false }
        running.timer?.cancel()
        running.invocation.end(
            outcome, runtimeDuration: outcome == .timedOut ? nil : running.sentAt.map { finishedAt - $0 },
            nextRequests: nextRequests)
        return true
    }

    /// The runtime failed to start: it is recorded, and every waiting or running invocation fails with it.
    func initFailed(_ error: ReportedError) {
        let (abandoned, started, nextRequests) = state.withLock { state in
            (Self.takeAll(&state), Self.settle(&state, .initFailed(error)), state.nextRequests)
        }
        started.deliver()
        for invocation in abandoned { invocation.end(.functionError(error), nextRequests: nextRequests) }
    }

    /// Waits until the runtime asks for its first invocation or reports an init error; throws `CancellationError`
    /// when the waiting task is cancelled.
    func runtimeStart() async throws -> RuntimeStart {
        let ticket = state.withLock { state in
            state.nextTicket += 1
            return state.nextTicket
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let known = state.withLock { state -> Result<RuntimeStart, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let start = state.start { return .success(start) }
                    state.startWaiters[ticket] = continuation
                    return nil
                }
                if let known { continuation.resume(with: known) }
            }
        } onCancel: {
            state.withLock { $0.startWaiters.removeValue(forKey: ticket) }?.resume(throwing: CancellationError())
        }
    }

    /// Forgets how the last runtime started, so ``runtimeStart()`` waits for a new one.
    func expectNewRuntime() {
        state.withLock { $0.start = nil }
    }

    /// A channel closed: a `GET next` parked on it will never be answered.
    func channelClosed(_ channel: ObjectIdentifier) {
        let parked = state.withLock { state -> ParkedNext? in
            guard state.parked?.channel == channel else { return nil }
            defer { state.parked = nil }
            return state.parked
        }
        parked?.promise.fail(ChannelError.ioOnClosedChannel)
    }

    func inject(_ fault: InjectedFault, on endpoint: RuntimeEndpoint) {
        state.withLock { $0.faults[endpoint] = fault }
    }

    /// The fault to show for this request, if one was injected; it is used up.
    func takeFault(for endpoint: RuntimeEndpoint) -> InjectedFault? {
        state.withLock { $0.faults.removeValue(forKey: endpoint) }
    }

    /// Ends every invocation as abandoned, lets no `GET next` wait any longer, and ends every wait of
    /// ``nextRequest(after:)``, now and later, with false.
    func abandonAll() {
        let (abandoned, parked, waiters, nextRequests) = state.withLock { state in
            defer { state.parked = nil }
            state.closed = true
            return (Self.takeAll(&state), state.parked, Self.takeNextWaiters(&state) { _ in true }, state.nextRequests)
        }
        parked?.promise.fail(ChannelError.ioOnClosedChannel)
        for waiter in waiters { waiter.resume(returning: false) }
        for invocation in abandoned { invocation.end(.abandoned, nextRequests: nextRequests) }
    }

    private static func takeAll(_ state: inout State) -> [Invocation] {
        let running = state.running.values.map { running in
            running.timer?.cancel()
            return running.invocation
        }
        defer {
            state.queue.removeAll()
            state.running.removeAll()
        }
        return state.queue + running
    }

    /// Removes the waiters of ``nextRequest(after:)`` that `isDone` picks, to be resumed outside the lock.
    private static func takeNextWaiters(
        _ state: inout State, where isDone: (NextWaiter) -> Bool
    ) -> [CheckedContinuation<Bool, Never>] {
        let done = state.nextWaiters.filter { isDone($0.value) }
        for ticket in done.keys { state.nextWaiters[ticket] = nil }
        return done.values.map(\.continuation)
    }

    private static func settle(_ state: inout State, _ start: RuntimeStart) -> StartNotice {
        state.start = start
        defer { state.startWaiters.removeAll() }
        return StartNotice(start: start, waiters: Array(state.startWaiters.values))
    }
}

/// Tells everyone waiting for the runtime's start how it went.
private struct StartNotice {
    let start: RuntimeStart
    let waiters: [CheckedContinuation<RuntimeStart, any Error>]

    func deliver() {
        for waiter in waiters { waiter.resume(returning: start) }
    }
}
