/// What one run of one runtime showed.
struct Measurement {
    /// Process start to its first `GET /next`.
    var initTime: Duration
    /// The first invocation's turnaround, as the Runtime API saw it (event sent → answer received).
    var firstInvocation: Duration
    /// Warm turnarounds, one per invocation.
    var latencies: [Duration]
    /// The runtime process's CPU time over the warm invocations, divided by their number.
    var cpuPerInvocation: Duration
    /// Warm invocations per second, one at a time.
    var throughput: Double
    var peakResidentKiB: Int
}

/// The medians over several runs of one runtime.
struct Summary: Sendable {
    var initTime: Duration
    var coldInitTime: Duration?
    var firstInvocation: Duration
    var p50: Duration
    var p99: Duration
    var cpuPerInvocation: Duration
    var throughput: Double
    var peakResidentKiB: Int

    init(_ runs: [Measurement], coldInits: [Duration]) {
        initTime = median(runs.map(\.initTime))
        coldInitTime = coldInits.isEmpty ? nil : median(coldInits)
        firstInvocation = median(runs.map(\.firstInvocation))
        p50 = median(runs.map { percentile($0.latencies, 0.50) })
        p99 = median(runs.map { percentile($0.latencies, 0.99) })
        cpuPerInvocation = median(runs.map(\.cpuPerInvocation))
        throughput = median(runs.map(\.throughput))
        peakResidentKiB = median(runs.map(\.peakResidentKiB))
    }
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
