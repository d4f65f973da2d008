import Foundation

// runtime-benchmark: the runtime loop against a minimal C loop on libcurl (the floor), on one core.
//   Deploy/package.sh     # stages the bootstrap the zip ships: Deploy/work/package/bootstrap
//   for product in echo-bootstrap runtime-benchmark; do
//       swift build -c release --static-swift-stdlib --product $product
//   done
//   .build/release/runtime-benchmark [--invocations N] [--rounds R] [--starts S] [--blocks B]
// (Product by product: a release build of the whole package stops at TestSupport, which imports Testing.)
// The bootstrap measured is the one Deploy/package.sh staged, linked as it ships and run through the loader staged
// beside it. The floor is runtime-floor.c beside this file, compiled at every run with the system C compiler as a
// user would build it (`cc -O2 runtime-floor.c -lcurl`; `CC` names another compiler) into a temporary folder.
// Measures, for the C floor, echo-bootstrap (our loop, echo handler) and bootstrap (Define/Create/Verify), medians
// over R interleaved rounds: init, init with a cold page cache (as root), first invocation, warm p50/p99,
// throughput, CPU per invocation and peak RSS (init and the first invocation over S starts per round, the run's own
// and S - 1 alone); then every figure as a ratio to the floor, beside the targets; then the bootstrap's CPU per
// invocation and p50 with each trigger's event sent alone; then echo-bootstrap's and the bootstrap's CPU per invocation
// against the floor's in B pairs of blocks of N/8 warm invocations, each runtime alive beside the floor.
//   .build/release/runtime-benchmark --against PATH [--invocations N] [--blocks B]
// Instead compares this bootstrap with another build of it at PATH (e.g. Deploy/work/package/bootstrap of a checkout
// of an earlier commit): both alive side by side, sent B (120 unless given) pairs of blocks of N/8 warm invocations in
// turn, for the rotation and each trigger alone; prints the median ratio of their CPU per invocation and the middle
// half of the ratios.
//   .build/release/runtime-benchmark --soak N
// Instead runs one bootstrap through N warm invocations (Define/Create/Verify, one emulator) and prints its RSS, peak
// RSS and open file descriptors at 10k, 20k, 50k, 100k, … and N, then the RSS growth from 10k to N.

let cpu = CPUAffinity.pinProcess(to: max(0, ProcessInfo.processInfo.activeProcessorCount - 1))
let arguments = CommandLine.arguments
/// The positive whole number after `name`; nil when `name` is absent; exits when the number is missing or not one.
func option(_ name: String) -> Int? {
    guard let index = arguments.firstIndex(of: name) else { return nil }
    guard index + 1 < arguments.count, let number = Int(arguments[index + 1]), number > 0 else {
        FileHandle.standardError.write(Data("runtime-benchmark: \(name) needs a positive whole number\n".utf8))
        exit(2)
    }
    return number
}
let invocations = option("--invocations") ?? 2000
let rounds = option("--rounds") ?? 5
let startsPerRound = option("--starts") ?? 5
let pairedBlocks = option("--blocks")
/// The path after `--against`; nil when it is absent.
let againstPath: String? = arguments.firstIndex(of: "--against").map { index in
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("runtime-benchmark: --against needs the path of another bootstrap\n".utf8))
        exit(2)
    }
    return arguments[index + 1]
}
let soakInvocations = option("--soak")
let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
// This file is Sources/Tools/runtime-benchmark/main.swift.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("runtime-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: scratch) }

func binary(_ name: String) throws -> RuntimeExecutable {
    let path = binaries.appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else { throw BenchmarkError.missingBinary(path) }
    return try RuntimeExecutable(path)
}

/// The bootstrap `Deploy/package.sh` staged for the zip.
func packagedBootstrap() throws -> RuntimeExecutable {
    let path = repository.appendingPathComponent("Deploy/work/package/bootstrap").path
    guard FileManager.default.isExecutableFile(atPath: path) else { throw BenchmarkError.notPackaged(path) }
    return try RuntimeExecutable(path)
}

do {
    let events = repository.appendingPathComponent("Events")
    let outbox = scratch.appendingPathComponent("outbox.jsonl").path
    let shipped = try packagedBootstrap()
    let bootstrap = try Workload.triggers(executable: shipped, events: events, outbox: outbox)
    if let againstPath {
        // This bootstrap beside another build of it, in paired blocks: a change too small for the rounds' noise.
        let other = try Workload.triggers(name: "other", executable: try RuntimeExecutable(againstPath), events: events, outbox: outbox)
        let perBlock = max(1, invocations / 8)
        // Three times the full benchmark's pairs: the differences sought here are a few per cent.
        let blocks = pairedBlocks ?? 120
        print("runtime-benchmark: bootstrap beside \(againstPath), pinned to CPU \(cpu); CPU per invocation of this one "
            + "over the other's in \(blocks) pairs of blocks of \(perBlock) warm invocations (median, and the middle half)")
        let runner = Runner(invocations: invocations)
        let comparisons = [("Define, Create, Verify", bootstrap, other)] + bootstrap.warmEventNames.compactMap { name in
            bootstrap.alone(name).flatMap { mine in other.alone(name).map { ("\(name) alone", mine, $0) } }
        }
        for (name, mine, theirs) in comparisons {
            try? FileManager.default.removeItem(atPath: outbox)
            let spread = RatioSpread(try await runner.pairedCPURatios(mine, to: theirs, blocks: blocks, perBlock: perBlock))
            print("  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) \(fixed(spread.median, 3))×  (\(spread.middleHalf))")
        }
    } else if let soakInvocations {
        print("runtime-benchmark: soak of bootstrap, \(soakInvocations) warm invocations, pinned to CPU \(cpu)")
        try await Soak(invocations: soakInvocations, outbox: outbox).run(bootstrap)
    } else {
        let verifyEvent = Array(try Data(contentsOf: events.appendingPathComponent("email-code/03-verify-right-code.json")))
        let floorSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("runtime-floor.c")
        let floor = try CFloor.build(source: floorSource, into: scratch)
        print("runtime-benchmark: \(floor.description)")
        var workloads = [
            Workload.echo(name: "C floor", executable: try RuntimeExecutable(floor.path), event: verifyEvent),
            Workload.echo(name: "echo-bootstrap", executable: try binary("echo-bootstrap"), event: verifyEvent),
            bootstrap,
            // The same without its metric line, so that the report can say what writing it costs.
            try Workload.triggers(
                name: Report.withoutMetrics, executable: shipped, events: events, outbox: outbox,
                environment: ["METRICS": "off"]),
        ]
        // The same bootstrap with the limits across sign-ins on DynamoDB (moto on 127.0.0.1, behind a proxy in this
        // process that counts connections and requests), when moto is installed.
        let dynamoDB = LocalDynamoDB()
        defer { dynamoDB?.stop() }
        if let dynamoDB {
            workloads.append(try Workload.triggers(
                name: "bootstrap+DynamoDB", executable: shipped, events: events, outbox: outbox,
                environment: dynamoDB.environment, store: dynamoDB.proxy))
        } else {
            print("runtime-benchmark: moto's DynamoDB is not available (moto or boto3 not installed, or moto did not start), so the bootstrap with a DynamoDB state store is not measured")
        }
        // The bootstrap sent one trigger's event alone, warm invocation after warm invocation: where its CPU goes.
        let triggersAlone = bootstrap.warmEventNames.compactMap { bootstrap.alone($0) }
        let runner = Runner(invocations: invocations)
        let cold = PageCache.canDrop
        print("runtime-benchmark: \(rounds) rounds × \(workloads.count) runtimes × \(invocations) warm invocations "
            + "(and \(startsPerRound) starts each: init and first invocation), everything pinned to CPU \(cpu); "
            + "cold-cache init \(cold ? "measured (root)" : "skipped (needs root)")")
        var runs = [[Measurement]](repeating: [], count: workloads.count)
        var starts = [[StartMeasurement]](repeating: [], count: workloads.count)
        var coldInits = [[Duration]](repeating: [], count: workloads.count)
        var aloneRuns = [[Measurement]](repeating: [], count: triggersAlone.count)
        for round in 0..<rounds {
            // Rotate the order each round so that no runtime always goes first.
            let order = (0..<workloads.count).map { (round + $0) % workloads.count }
            for index in order {
                try? FileManager.default.removeItem(atPath: outbox)
                dynamoDB?.clear()
                runs[index].append(try await runner.measure(workloads[index]))
            }
            // A start is a single sample of a noisy figure: each run's own start is joined by more, measured alone and
            // interleaved, so that init and the first invocation are medians of rounds × starts samples.
            for _ in 1..<max(1, startsPerRound) {
                for index in order {
                    try? FileManager.default.removeItem(atPath: outbox)
                    dynamoDB?.clear()
                    starts[index].append(try await runner.measureStart(workloads[index]))
                }
            }
            for index in triggersAlone.indices.map({ (round + $0) % triggersAlone.count }) {
                try? FileManager.default.removeItem(atPath: outbox)
                aloneRuns[index].append(try await runner.measure(triggersAlone[index]))
            }
            print("  round \(round + 1) of \(rounds) done")
        }
        // Each runtime and the floor alive side by side, their warm invocations sent in alternating blocks.
        var paired: [(name: String, ratios: [Double])] = []
        for workload in workloads[1...2] {
            try? FileManager.default.removeItem(atPath: outbox)
            let ratios = try await runner.pairedCPURatios(
                workload, to: workloads[0], blocks: pairedBlocks ?? 40, perBlock: max(1, invocations / 8))
            paired.append((workload.name, ratios))
        }
        // Cold starts come after every warm run: dropping the page cache would make later warm starts partly cold.
        for round in 0..<(cold ? rounds : 0) {
            for index in (0..<workloads.count).map({ (round + $0) % workloads.count }) {
                coldInits[index].append(try await runner.measureColdInit(workloads[index]))
            }
        }
        let summaries = workloads.indices.map { Summary(runs[$0], starts: starts[$0], coldInits: coldInits[$0]) }
        let alone = triggersAlone.indices.map { (triggersAlone[$0].name, Summary(aloneRuns[$0], starts: [], coldInits: [])) }
        print(Report(
            names: workloads.map(\.name), summaries: summaries, triggersAlone: alone, paired: paired,
            pairedBlockSize: max(1, invocations / 8), invocations: invocations, floor: floor
        ).text)
    }
} catch {
    FileHandle.standardError.write(Data("runtime-benchmark: \(error)\n".utf8))
    try? FileManager.default.removeItem(at: scratch)  // `exit` skips the `defer` above.
    exit(1)
}
