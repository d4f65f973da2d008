/// What one run of one runtime showed.
struct Measurement {
    /// Its start: init and the first invocation.
    var start: StartMeasurement
    /// Warm turnarounds, one per invocation.
    var latencies: [Duration]
    /// The runtime process's CPU time over the warm invocations, divided by their number.
    var cpuPerInvocation: Duration
    /// Warm invocations per second, one at a time.
    var throughput: Double
    var peakResidentKiB: Int
    /// The state store's traffic, when the workload has one behind a counting proxy.
    var store: StoreTraffic?
}

/// What one start of a runtime showed: a full run's, or one of the starts measured alone.
struct StartMeasurement {
    /// Process start to its first `GET /next`.
    var initTime: Duration
    /// The first invocation's turnaround, as the Runtime API saw it (event sent → answer received).
    var firstInvocation: Duration
}

/// What one run sent to the state store, counted at the proxy in front of it.
struct StoreTraffic {
    /// Connections the runtime opened over the whole run (init, the first invocation and the warm ones).
    var connections: Int
    /// Requests (round trips) during the first invocation.
    var firstRequests: Int
    /// Requests during the warm invocations, in all and by the kind of event being answered (`Create`).
    var warmRequests: Int
    var warmRequestsByEvent: [String: Int]
    /// Warm invocations of each kind.
    var warmInvocationsByEvent: [String: Int]
    /// Warm requests by operation (`PutItem`).
    var warmOperations: [String: Int]
}

/// The medians over several runs of one runtime.
struct Summary: Sendable {
    var initTime: Duration
    var coldInitTime: Duration?
    var firstInvocation: Duration
    var p50: Duration
    var p99: Duration
    var cpuPerInvocation: Duration
    /// Each run's CPU per invocation, in µs, in the order of the rounds.
    var cpuPerRound: [Double]
    var throughput: Double
    var peakResidentKiB: Int
    /// The state store's figures, medians over the runs: connections per run, round trips per warm invocation (in
    /// all, by event kind and by operation) and in the first invocation.
    var store: StoreSummary?

    /// `starts` are the starts measured alone, whose init and first invocation join the runs' own.
    init(_ runs: [Measurement], starts: [StartMeasurement], coldInits: [Duration]) {
        let allStarts = runs.map(\.start) + starts
        initTime = median(allStarts.map(\.initTime))
        coldInitTime = coldInits.isEmpty ? nil : median(coldInits)
        firstInvocation = median(allStarts.map(\.firstInvocation))
        p50 = median(runs.map { percentile($0.latencies, 0.50) })
        p99 = median(runs.map { percentile($0.latencies, 0.99) })
        cpuPerInvocation = median(runs.map(\.cpuPerInvocation))
        cpuPerRound = runs.map(\.cpuPerInvocation.microseconds)
        throughput = median(runs.map(\.throughput))
        peakResidentKiB = median(runs.map(\.peakResidentKiB))
        let traffic = runs.compactMap(\.store)
        store = traffic.isEmpty ? nil : StoreSummary(traffic, invocations: runs.first?.latencies.count ?? 1)
    }
}

struct StoreSummary: Sendable {
    var connections: Int
    var firstRequests: Int
    var perInvocation: Double
    /// Round trips per warm invocation of each event kind, in the order the kinds were first seen.
    var perEvent: [(String, Double)]
    var perOperation: [(String, Double)]

    init(_ runs: [StoreTraffic], invocations: Int) {
        connections = median(runs.map(\.connections))
        firstRequests = median(runs.map(\.firstRequests))
        perInvocation = median(runs.map { Double($0.warmRequests) / Double(max(1, invocations)) })
        let events = runs[0].warmInvocationsByEvent.keys.sorted { Self.order($0) < Self.order($1) }
        perEvent = events.map { event in
            (event, median(runs.map {
                Double($0.warmRequestsByEvent[event] ?? 0) / Double(max(1, $0.warmInvocationsByEvent[event] ?? 0))
            }))
        }
        let operations = Set(runs.flatMap(\.warmOperations.keys)).sorted()
        perOperation = operations.map { operation in
            (operation, median(runs.map { Double($0.warmOperations[operation] ?? 0) / Double(max(1, invocations)) }))
        }
    }

    private static func order(_ event: String) -> Int { ["Define", "Create", "Verify"].firstIndex(of: event) ?? 3 }
}

func median<T: Comparable>(_ values: [T]) -> T {
    values.sorted()[values.count / 2]
}

/// The nearest-rank percentile.
func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
    let sorted = values.sorted()
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[max(0, min(sorted.count - 1, rank - 1))]
}

/// Ratios of paired blocks (see `Runner.pairedCPURatios`): their median and the middle half of them.
struct RatioSpread: Sendable {
    let median: Double
    let lower: Double
    let upper: Double

    init(_ ratios: [Double]) {
        let sorted = ratios.sorted()
        median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        lower = sorted.isEmpty ? .nan : sorted[sorted.count / 4]
        upper = sorted.isEmpty ? .nan : sorted[(3 * sorted.count) / 4]
    }

    /// The middle half as text, `1.37–1.43×`.
    var middleHalf: String { fixed(lower, 2) + "–" + fixed(upper, 2) + "×" }
}
