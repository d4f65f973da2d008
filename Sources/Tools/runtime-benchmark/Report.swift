import Foundation

/// The figures as a table, then as ratios to the C floor beside the issue's targets.
struct Report {
    let names: [String]
    let summaries: [Summary]
    /// The bootstrap with one trigger's event alone as its warm invocations (`bootstrap Create`).
    let triggersAlone: [(name: String, summary: Summary)]
    /// CPU per invocation over the floor's in pairs of blocks run side by side (see `Runner.pairedCPURatios`).
    let paired: [(name: String, ratios: [Double])]
    let pairedBlockSize: Int
    let invocations: Int
    let floor: CFloor

    /// A figure compared with the floor's; lower is better for all of them.
    struct Target: Sendable {
        let label: String
        let value: @Sendable (Summary) -> Double
        let limits: [String: Double]
    }

    /// Issue 28's targets for the bootstrap; echo-bootstrap's loop alone should stay near the floor.
    static let targets = [
        Target(label: "CPU per invocation", value: { $0.cpuPerInvocation.microseconds },
               limits: ["echo-bootstrap": 1.2, "bootstrap": 1.35]),
        Target(label: "warm p50", value: { $0.p50.microseconds }, limits: ["echo-bootstrap": 1.2, "bootstrap": 1.35]),
        Target(label: "warm p99", value: { $0.p99.microseconds }, limits: [:]),
        Target(label: "init", value: { $0.initTime.microseconds }, limits: ["echo-bootstrap": 1.2, "bootstrap": 1.2]),
        Target(label: "init, cold cache", value: { $0.coldInitTime?.microseconds ?? .nan }, limits: [:]),
        Target(label: "first invocation", value: { $0.firstInvocation.microseconds }, limits: ["bootstrap": 2.0]),
        Target(label: "peak RSS", value: { Double($0.peakResidentKiB) }, limits: ["echo-bootstrap": 1.3, "bootstrap": 1.45]),
        Target(label: "throughput (inverse)", value: { 1 / $0.throughput }, limits: [:]),
    ]

    /// The name of the row of the bootstrap with `METRICS=off` (the table's first column holds 13 characters).
    static let withoutMetrics = "no-metrics"

    var text: String {
        var lines = [
            "", floor.description, "medians; latencies are the Runtime API's view (event sent → answer received); "
                + "store RT/inv: state-store round trips per warm invocation, store conns: connections it opened per run", "",
        ]
        lines.append(row(["runtime", "init ms", "cold init ms", "first ms", "p50 µs", "p99 µs", "inv/s", "CPU µs/inv", "peak RSS MiB", "store RT/inv", "store conns"], width: 13))
        for (name, summary) in zip(names, summaries) {
            lines.append(row([
                name, fixed(summary.initTime.milliseconds, 2), summary.coldInitTime.map { fixed($0.milliseconds, 2) } ?? "—",
                fixed(summary.firstInvocation.milliseconds, 2), fixed(summary.p50.microseconds, 0),
                fixed(summary.p99.microseconds, 0), fixed(summary.throughput, 0),
                fixed(summary.cpuPerInvocation.microseconds, 1), fixed(Double(summary.peakResidentKiB) / 1024, 1),
                summary.store.map { fixed($0.perInvocation, 2) } ?? "—", summary.store.map { String($0.connections) } ?? "—",
            ], width: 13))
        }
        let stores = zip(names, summaries).compactMap { name, summary in summary.store.map { (name, $0) } }
        for (name, store) in stores {
            lines += ["", "\(name): state store, counted at the HTTP front before moto (CountingProxy; medians of the runs)", ""]
            let events = store.perEvent.map { "\($0.0) \(fixed($0.1, 2))" }.joined(separator: ", ")
            let operations = store.perOperation.map { "\($0.0) \(fixed($0.1, 2))" }.joined(separator: ", ")
            lines.append("  round trips per warm invocation: \(fixed(store.perInvocation, 2)) (per \(events); by operation: "
                + "\(operations.isEmpty ? "none" : operations))")
            lines.append("  round trips in the first invocation: \(store.firstRequests)")
            lines.append("  connections opened per run (init, first and \(invocations) warm invocations): \(store.connections)")
        }
        if let with = zip(names, summaries).first(where: { $0.0 == "bootstrap" })?.1,
           let without = zip(names, summaries).first(where: { $0.0 == Self.withoutMetrics })?.1
        {
            // The difference of two figures that move by as much from run to run: each round's two runs against each
            // other, and the range of those differences beside their median, so that the noise shows.
            let costs = zip(with.cpuPerRound, without.cpuPerRound).map { $0 - $1 }.sorted()
            if let least = costs.first, let most = costs.last {
                let cost = median(costs)
                lines += ["", "the metric line (EMF) costs \(fixed(cost, 1)) µs of CPU per invocation "
                    + "(\(fixed(100 * cost / max(without.cpuPerInvocation.microseconds, 1), 1)) % of bootstrap with METRICS=off; "
                    + "median of the rounds' differences, which ranged from \(fixed(least, 1)) to \(fixed(most, 1)) µs)"]
            }
        }
        guard let floor = summaries.first else { return lines.joined(separator: "\n") }
        if !triggersAlone.isEmpty {
            lines += ["", "each trigger alone: the bootstrap sent only that event as its warm invocations (medians; ratio to the C floor)", ""]
            lines.append(row(["runtime", "CPU µs/inv", "ratio", "p50 µs", "ratio"], width: 13))
            for (name, summary) in triggersAlone {
                let cpu = summary.cpuPerInvocation.microseconds, p50 = summary.p50.microseconds
                lines.append(row([
                    name, fixed(cpu, 1), fixed(cpu / floor.cpuPerInvocation.microseconds, 2) + "×", fixed(p50, 0),
                    fixed(p50 / floor.p50.microseconds, 2) + "×",
                ], width: 13))
            }
        }
        if let blocks = paired.first?.ratios.count, blocks > 0 {
            lines += [
                "", "CPU per invocation in paired blocks: each runtime alive beside the C floor, the two sent \(blocks) blocks "
                    + "of \(pairedBlockSize) warm invocations in turn; the ratio of each pair (median, and the middle half of the pairs)", "",
            ]
            lines.append(row(["runtime", "ratio", "middle half"], width: 13))
            for (name, ratios) in paired where !ratios.isEmpty {
                let spread = RatioSpread(ratios)
                lines.append(row([name, fixed(spread.median, 2) + "×", spread.middleHalf], width: 13))
            }
        }
        lines += ["", "ratio to the C floor (target in brackets)", ""]
        lines.append(row(["figure"] + names.dropFirst(), width: 25))
        for target in Self.targets {
            let base = target.value(floor)
            guard base.isFinite, base > 0 else { continue }
            let cells = zip(names, summaries).dropFirst().map { name, summary in
                let ratio = target.value(summary) / base
                guard let limit = target.limits[name] else { return fixed(ratio, 2) + "×" }
                return fixed(ratio, 2) + "× [≤\(fixed(limit, 2))] " + (ratio <= limit ? "met" : "MISSED")
            }
            lines.append(row([target.label] + cells, width: 25))
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ cells: [String], width: Int) -> String {
        cells.enumerated().map { index, cell in
            index == 0 ? cell.padding(toLength: 20, withPad: " ", startingAt: 0) : pad(cell, width)
        }.joined(separator: " ")
    }
}

/// `text` right-aligned in `width` columns.
func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// `value` with `digits` decimals, or a dash when it is not a number.
func fixed(_ value: Double, _ digits: Int) -> String {
    value.isFinite ? String(format: "%.\(digits)f", value) : "—"
}
