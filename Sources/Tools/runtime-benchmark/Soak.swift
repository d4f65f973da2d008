import DevelopmentSupport
import Foundation
import Invoker

/// A runtime's memory and open file descriptors after some number of warm invocations.
struct SoakSample {
    let invocations: Int
    let elapsed: Duration
    let residentKiB: Int
    let peakResidentKiB: Int
    let openFileDescriptors: Int

    /// `process` as it is now; throws when it has ended.
    init(of process: ChildProcess, invocations: Int, elapsed: Duration) throws {
        guard let resident = process.residentKiB, let peak = process.peakResidentKiB,
            let descriptors = process.openFileDescriptorCount
        else {
            let ended = process.termination.map { " (\($0))" } ?? ""
            throw BenchmarkError.runtimeFailed("the runtime ended\(ended) before its sample at \(invocations) warm invocations")
        }
        self.invocations = invocations
        self.elapsed = elapsed
        residentKiB = resident
        peakResidentKiB = peak
        openFileDescriptors = descriptors
    }
}

/// One runtime, one Runtime API emulator, `invocations` warm invocations in a row, sampled at 10k, 20k, 50k, 100k, …
/// and at the end: a table row per sample as it is taken, then the growth from the first sample to the last.
struct Soak {
    let invocations: Int
    /// The runtime's outbox, emptied at each sample so that disk use stays bounded. The bootstrap keeps it open with
    /// `O_APPEND` (`PrivateAppendFile`), so its next line lands at the start of the emptied file.
    let outbox: String

    /// 10k, 20k, 50k, 100k, 200k, … below `invocations`, then `invocations`.
    var checkpoints: [Int] {
        let series = sequence(first: 10_000) { $0 * 10 }.lazy.flatMap { decade in [1, 2, 5].map { $0 * decade } }
        return Array(series.prefix { $0 < invocations }) + [invocations]
    }

    func run(_ workload: Workload) async throws {
        var samples: [SoakSample] = []
        print(row(["invocations", "elapsed s", "RSS KiB", "peak RSS KiB", "open fds"]))
        try await Runner(invocations: invocations).soak(workload, sampledAt: Set(checkpoints)) { sample in
            guard truncate(outbox, 0) == 0 else {
                throw BenchmarkError.runtimeFailed("could not empty the outbox \(outbox): \(String(cString: strerror(errno)))")
            }
            samples.append(sample)
            print(row([
                String(sample.invocations), fixed(sample.elapsed.seconds, 1), String(sample.residentKiB),
                String(sample.peakResidentKiB), String(sample.openFileDescriptors),
            ]))
            fflush(nil)
        }
        guard let first = samples.first, let last = samples.last else { return }
        let growth = last.residentKiB - first.residentKiB
        print("RSS growth from \(count(first.invocations)) to \(count(last.invocations)): "
            + String(format: "%+d KiB (%+.1f%%)", growth, Double(growth) / Double(first.residentKiB) * 100)
            + ", open fds: \(first.openFileDescriptors) → \(last.openFileDescriptors)")
    }

    private func row(_ cells: [String]) -> String {
        cells.map { pad($0, 13) }.joined(separator: " ")
    }

    /// 10k, 1M, or the plain number when it is not a whole thousand.
    private func count(_ invocations: Int) -> String {
        if invocations % 1_000_000 == 0 { return "\(invocations / 1_000_000)M" }
        return invocations % 1000 == 0 ? "\(invocations / 1000)k" : String(invocations)
    }
}
