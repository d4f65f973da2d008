import DevelopmentSupport
import Foundation
import Invoker

/// Runs one runtime against a fresh Runtime API emulator and measures it.
struct Runner {
    let invocations: Int

    /// One full run: init, the first invocation, then `invocations` warm ones.
    func measure(_ workload: Workload) async throws -> Measurement {
        let storeAtStart = workload.store?.counts
        let (emulator, process, initTime) = try await start(workload)
        let beforeFirst = workload.store?.counts.requests ?? 0
        let first = try await invoke(emulator, workload.firstEvent)
        let events = try workload.warmEvents(first.body)
        // The store's requests during each warm invocation, read at the proxy after it (a lock, no I/O): the runtime
        // answers only after its last round trip to the store, so each one is counted before the answer arrives.
        let storeBeforeWarm = workload.store?.counts
        var requestsSeen = storeBeforeWarm?.requests ?? 0
        let firstRequests = requestsSeen - beforeFirst
        var requestsByEvent = [Int](repeating: 0, count: events.count)
        let cpuBefore = process.cpuTime()
        let started = ContinuousClock.now
        var latencies: [Duration] = []
        latencies.reserveCapacity(invocations)
        for index in 0..<invocations {
            latencies.append(try await invoke(emulator, events[index % events.count]).turnaround)
            if let store = workload.store {
                let requests = store.counts.requests
                requestsByEvent[index % events.count] += requests - requestsSeen
                requestsSeen = requests
            }
        }
        let elapsed = started.duration(to: .now)
        let cpu = process.cpuTime() - cpuBefore
        let peak = process.peakResidentKiB ?? 0
        let storeAfterWarm = workload.store?.counts
        try await stop(emulator, process)
        var traffic: StoreTraffic?
        if let storeAtStart, let storeBeforeWarm, let storeAfterWarm, let storeAtEnd = workload.store?.counts {
            traffic = storeTraffic(
                workload, events: events.count, requestsByEvent: requestsByEvent, firstRequests: firstRequests,
                atStart: storeAtStart, beforeWarm: storeBeforeWarm, afterWarm: storeAfterWarm, atEnd: storeAtEnd)
        }
        return Measurement(
            start: StartMeasurement(initTime: initTime, firstInvocation: first.turnaround), latencies: latencies,
            cpuPerInvocation: cpu / invocations, throughput: Double(invocations) / elapsed.seconds,
            peakResidentKiB: peak, store: traffic)
    }

    /// The store's traffic over one run, from the proxy's counts at its points.
    private func storeTraffic(
        _ workload: Workload, events: Int, requestsByEvent: [Int], firstRequests: Int,
        atStart: CountingProxy.Counts, beforeWarm: CountingProxy.Counts, afterWarm: CountingProxy.Counts,
        atEnd: CountingProxy.Counts
    ) -> StoreTraffic {
        var requests: [String: Int] = [:]
        var sent: [String: Int] = [:]
        for index in 0..<events {
            let name = index < workload.warmEventNames.count ? workload.warmEventNames[index] : "event \(index + 1)"
            requests[name, default: 0] += requestsByEvent[index]
            sent[name, default: 0] += invocations / events + (index < invocations % events ? 1 : 0)
        }
        var operations = afterWarm.operations
        for (operation, count) in beforeWarm.operations { operations[operation, default: 0] -= count }
        return StoreTraffic(
            connections: atEnd.connections - atStart.connections, firstRequests: firstRequests,
            warmRequests: requestsByEvent.reduce(0, +), warmRequestsByEvent: requests, warmInvocationsByEvent: sent,
            warmOperations: operations.filter { $0.value != 0 })
    }

    /// `subject` and `reference` started side by side and sent their warm invocations in alternating blocks of
    /// `perBlock` (the order swapped from block to block, after a block each to warm up), so that every block of one
    /// runs moments before or after a block of the other: the ratio of their CPU per invocation, one per pair of
    /// blocks. Noise that lasts a second or more (another tenant of the host) falls on both blocks of a pair alike,
    /// where runs seconds apart meet it unequally.
    func pairedCPURatios(_ subject: Workload, to reference: Workload, blocks: Int, perBlock: Int) async throws -> [Double] {
        var sides: [(emulator: RuntimeAPIEmulator, process: ChildProcess, events: [[UInt8]])] = []
        var sent = [0, 0]
        /// CPU per invocation of one block of `side`'s warm invocations, in µs.
        func block(_ side: Int) async throws -> Double {
            let (emulator, process, events) = sides[side]
            let before = process.cpuTime()
            for _ in 0..<perBlock {
                _ = try await invoke(emulator, events[sent[side] % events.count])
                sent[side] += 1
            }
            return (process.cpuTime() - before).microseconds / Double(perBlock)
        }
        do {
            for workload in [subject, reference] {
                let (emulator, process, _) = try await start(workload)
                sides.append((emulator, process, []))
                sides[sides.count - 1].events = try workload.warmEvents(try await invoke(emulator, workload.firstEvent).body)
            }
            _ = try await block(0)
            _ = try await block(1)
            var ratios: [Double] = []
            for index in 0..<blocks {
                let subjectFirst = index.isMultiple(of: 2)
                let first = try await block(subjectFirst ? 0 : 1)
                let second = try await block(subjectFirst ? 1 : 0)
                ratios.append(subjectFirst ? first / second : second / first)
            }
            for side in sides { try await stop(side.emulator, side.process) }
            return ratios
        } catch {
            for side in sides { try? await stop(side.emulator, side.process) }
            throw error
        }
    }

    /// One process answering `invocations` warm invocations in a row, after init and the first; at each of
    /// `checkpoints` (counts of warm invocations) its memory and descriptors are sampled and handed to `sampled`.
    func soak(_ workload: Workload, sampledAt checkpoints: Set<Int>, _ sampled: (SoakSample) throws -> Void) async throws {
        let (emulator, process, _) = try await start(workload)
        do {
            let events = try workload.warmEvents(try await invoke(emulator, workload.firstEvent).body)
            let started = ContinuousClock.now
            for index in 0..<invocations {
                do {
                    _ = try await invoke(emulator, events[index % events.count])
                } catch {
                    let ended = process.termination.map { "; \(workload.name) ended: \($0)" } ?? ""
                    throw BenchmarkError.runtimeFailed("soak stopped at warm invocation \(index + 1) of \(invocations): \(error)\(ended)")
                }
                if checkpoints.contains(index + 1) {
                    try sampled(try SoakSample(of: process, invocations: index + 1, elapsed: started.duration(to: .now)))
                }
            }
        } catch {
            try? await stop(emulator, process)
            throw error
        }
        try await stop(emulator, process)
    }

    /// A start alone: init and the first invocation, then the runtime is stopped.
    func measureStart(_ workload: Workload) async throws -> StartMeasurement {
        let (emulator, process, initTime) = try await start(workload)
        do {
            let first = try await invoke(emulator, workload.firstEvent)
            try await stop(emulator, process)
            return StartMeasurement(initTime: initTime, firstInvocation: first.turnaround)
        } catch {
            try? await stop(emulator, process)
            throw error
        }
    }

    /// Init alone, after dropping the page cache (root only): every file the runtime maps is read from disk.
    func measureColdInit(_ workload: Workload) async throws -> Duration {
        let (emulator, process, initTime) = try await start(workload, dropCaches: true)
        try await stop(emulator, process)
        return initTime
    }

    private func start(_ workload: Workload, dropCaches: Bool = false) async throws
        -> (RuntimeAPIEmulator, ChildProcess, Duration)
    {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        if dropCaches { PageCache.drop() }
        let process = try ChildProcess.spawn(
            workload.executable.path, arguments: workload.executable.arguments,
            environment: workload.environment.merging(["AWS_LAMBDA_RUNTIME_API": address]) { $1 },
            output: .discarded)
        // A runtime that dies would leave the invocation it was sent queued forever; shutting the emulator down when
        // it ends abandons that invocation, so the run fails instead of hanging.
        Task { if await process.terminated() != nil { await emulator.shutdown() } }
        guard case .ready(let ready) = try await emulator.runtimeStart() else {
            throw BenchmarkError.runtimeFailed("\(workload.name) reported an init error")
        }
        return (emulator, process, process.startedAt.duration(to: ready))
    }

    /// Takes the Runtime API away, which ends the runtime; kills it if it is still there two seconds later.
    private func stop(_ emulator: RuntimeAPIEmulator, _ process: ChildProcess) async throws {
        await emulator.shutdown()
        let deadline = ContinuousClock.now + .seconds(2)
        while process.termination == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        process.kill()
        _ = await process.terminated()
    }

    private func invoke(_ emulator: RuntimeAPIEmulator, _ event: [UInt8]) async throws -> (body: [UInt8], turnaround: Duration) {
        let result = await emulator.invoke(event, timeout: .seconds(5))
        guard case .response(let body) = result.outcome, let turnaround = result.runtimeDuration else {
            throw BenchmarkError.runtimeFailed("an invocation failed: \(result.outcome)")
        }
        return (body, turnaround)
    }
}

/// Keeps the benchmark, its Runtime API server and the runtimes it starts on one core, as a 1-vCPU Lambda would:
/// the benchmark runs itself again under `taskset`, so every thread and child process inherits the affinity.
enum CPUAffinity {
    static let marker = "RUNTIME_BENCHMARK_CPU"

    /// The CPU everything runs on, after re-executing under `taskset -c CPU` if this process is not pinned yet.
    static func pinProcess(to cpu: Int) -> Int {
        if let pinned = getenv(marker).flatMap({ Int(String(cString: $0)) }) { return pinned }
        setenv(marker, String(cpu), 1)
        let arguments = ["taskset", "-c", String(cpu)] + CommandLine.arguments
        let pointers = arguments.map { strdup($0) } + [nil]
        execvp("taskset", pointers)
        FileHandle.standardError.write(Data("runtime-benchmark: taskset is missing (apt-get install util-linux); not pinned\n".utf8))
        return -1
    }
}

/// `sync; echo 3 > /proc/sys/vm/drop_caches`.
enum PageCache {
    static var canDrop: Bool { getuid() == 0 && access("/proc/sys/vm/drop_caches", W_OK) == 0 }

    static func drop() {
        sync()
        guard let file = fopen("/proc/sys/vm/drop_caches", "w") else { return }
        fputs("3\n", file)
        fclose(file)
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Double { seconds * 1000 }
    var microseconds: Double { seconds * 1_000_000 }
}
