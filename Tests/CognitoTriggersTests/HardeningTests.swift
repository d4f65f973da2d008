import Basics
import ChallengeFlows
import CognitoTriggers
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import Platform
import ServiceClients
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The outbox in a shared /tmp, decoy destinations and the time a Create that sends nothing takes.
@Suite struct HardeningTests {
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())").path
    }

    static let message = CodeMessage(recipient: "jane.doe@example.com", userName: "jane", code: "482913", validForSeconds: 180)

    @Test("the outbox refuses a symbolic link planted at its path")
    func outboxRefusesLinks() throws {
        let target = Self.scratch("target")
        let link = Self.scratch("outbox")
        try #require(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600]), "the test could not create its file")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer { try? FileManager.default.removeItem(atPath: link); try? FileManager.default.removeItem(atPath: target) }
        let error = #expect(throws: LocalFile.Failure.self) {
            try OutboxDelivery(path: link, clock: { 0 }).deliver(Self.message)
        }
        #expect(error?.reason.contains("symbolic link") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty, "nothing reached the link's target")
    }

    @Test("the outbox refuses an existing file that others may read")
    func outboxRefusesOpenFiles() throws {
        let path = Self.scratch("outbox")
        try #require(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]), "the test could not create its file")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: LocalFile.Failure.self) { try OutboxDelivery(path: path, clock: { 0 }).deliver(Self.message) }
        #expect(error?.reason.contains("0644") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).isEmpty)
    }

    @Test("the outbox refuses a file that belongs to another user", .enabled(if: geteuid() == 0, "needs root to give a file away"))
    func outboxRefusesForeignFiles() throws {
        let path = Self.scratch("outbox")
        try #require(FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]), "the test could not create its file")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chown(path, 65534, 65534) == 0)
        let error = #expect(throws: LocalFile.Failure.self) { try OutboxDelivery(path: path, clock: { 0 }).deliver(Self.message) }
        #expect(error?.reason.contains("belongs to user id 65534") == true)
    }

    @Test("the outbox keeps its file open, and opens it again when it was removed or replaced")
    func outboxFollowsItsPath() throws {
        let path = Self.scratch("outbox")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outbox = OutboxDelivery(path: path, clock: { 0 })
        for _ in 0..<50 { try outbox.deliver(Self.message) }
        #expect(try OutboxDelivery.messages(at: path).count == 50)
        // Counted by target, not in total: other tests open and close descriptors meanwhile.
        let descriptorsOnTheOutbox = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").filter { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == path
        }
        #expect(descriptorsOnTheOutbox.count == 1, "one descriptor serves every delivery")

        try FileManager.default.removeItem(atPath: path)
        try outbox.deliver(Self.message)
        #expect(try OutboxDelivery.messages(at: path).count == 1, "a removed outbox is created again")

        let replacement = Self.scratch("replacement")
        try #require(FileManager.default.createFile(atPath: replacement, contents: nil, attributes: [.posixPermissions: 0o600]), "the test could not create its file")
        #expect(rename(replacement, path) == 0)
        try outbox.deliver(Self.message)
        #expect(try OutboxDelivery.messages(at: path).count == 1, "a replaced outbox gets the next line")
    }

    @Test("the outbox refuses its open file once others may read it, or once a link stands at its path")
    func outboxChecksItsOpenFile() throws {
        let path = Self.scratch("outbox")
        let target = Self.scratch("target")
        defer { try? FileManager.default.removeItem(atPath: path); try? FileManager.default.removeItem(atPath: target) }
        let outbox = OutboxDelivery(path: path, clock: { 0 })
        try outbox.deliver(Self.message)

        #expect(chmod(path, 0o644) == 0)
        let opened = #expect(throws: LocalFile.Failure.self) { try outbox.deliver(Self.message) }
        #expect(opened?.reason.contains("0644") == true)
        #expect(try OutboxDelivery.messages(at: path).count == 1)

        try #require(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o600]), "the test could not create its file")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        let linked = #expect(throws: LocalFile.Failure.self) { try outbox.deliver(Self.message) }
        #expect(linked?.reason.contains("symbolic link") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)).isEmpty, "nothing reached the link's target")
    }

    static func engine(current: String, decoy: String? = nil) throws -> ChallengeFlowEngine {
        try ChallengeFlowEngine(
            flow: SignInFlow(parsing: "email-code"), policy: ChallengePolicy(),
            keys: ChallengeKeys(current: Array(current.utf8), decoy: decoy.map { Array($0.utf8) }), random: SystemRandom())
    }

    static func decoy(_ engine: ChallengeFlowEngine, for userName: String) throws -> String {
        let request = try CreateAuthChallengeRequest(
            json: ["userAttributes": [:], "challengeName": "CUSTOM_CHALLENGE", "session": [], "userNotFound": true],
            path: "$.request")
        let issued = try engine.create(request, user: UserIdentity(userPoolId: "us-east-1_EXAMPLE", userName: userName), now: 1_700_000_000)
        return try #require(issued.publicParameters["destination"])
    }

    @Test("decoys stay the same when CODE_HASH_SECRET rotates, given a DECOY_MASK_SECRET")
    func decoysSurviveRotation() throws {
        let decoyKey = "decoy-key-0123456789abcdefghijklmnop"
        let before = try Self.engine(current: "first-secret-0123456789abcdefghijkl", decoy: decoyKey)
        let after = try Self.engine(current: "second-secret-0123456789abcdefghijk", decoy: decoyKey)
        for name in ["ghost", "Ghost", "someone-else", "x"] {
            #expect(try Self.decoy(before, for: name) == Self.decoy(after, for: name))
        }
        #expect(try Self.decoy(before, for: "Ghost") == Self.decoy(before, for: "ghost"), "case-normalised")
    }

    @Test("decoy top-level domains follow the shares of real addresses (.com for most)")
    func decoyDomainSpread() throws {
        let engine = try Self.engine(current: "spread-secret-0123456789abcdefghijk")
        var counts: [String: Int] = [:]
        for index in 0..<2000 {
            let destination = try Self.decoy(engine, for: "user-\(index)")
            counts[String(destination.split(separator: ".").last ?? ""), default: 0] += 1
        }
        let comShare = Double(counts["com", default: 0]) / 2000
        #expect((0.73...0.83).contains(comShare), "\(counts)")
        #expect(counts.count >= 6, "\(counts)")
    }
}

/// A delivery whose durations are drawn from a known distribution, passed on the test's clock instead of slept.
final class SlowDelivery: CodeDelivery, Sendable {
    let clock: ManualMonotonicTime

    init(clock: ManualMonotonicTime) {
        self.clock = clock
    }

    func deliver(_ message: CodeMessage) throws {
        clock.advance(by: .microseconds(Int.random(in: 4_000...12_000)))
    }
}

/// The waits are the ones the handler asks of an injected clock, which moves only when a delivery or a pause moves
/// it: the figures are the handler's decisions, not how busy the machine running the test is.
@Suite("Timing: a Create that sends nothing takes as long as one that sends")
struct DecoyTimingTests {
    static func handler(decoyDelay: String, delivery: any CodeDelivery, time: ManualMonotonicTime) throws -> CognitoTriggerHandler {
        try CognitoTriggerHandler(
            configuration: TriggerConfiguration(environment: [
                "CODE_HASH_SECRET": CorpusEvent.secret, "CODE_DELIVERY": "outbox", "DECOY_DELAY_MS": decoyDelay,
            ]),
            delivery: delivery, clock: { CorpusEvent.now }, time: time.time)
    }

    static let realCreate = (try? Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-code/02-create-code.json"))).map(Array.init) ?? []
    static let unknownCreate = (try? Data(contentsOf: CorpusEvent.eventsDirectory.appendingPathComponent("email-code/13-create-user-not-found.json"))).map(Array.init) ?? []

    /// How far a Create moved the injected clock (its delivery or its pause), in milliseconds.
    static func milliseconds(_ handler: CognitoTriggerHandler, _ event: [UInt8], on time: ManualMonotonicTime) throws -> Double {
        let start = time.elapsed
        _ = try handler.handle(event)
        let elapsed = time.elapsed - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// The two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical distributions.
    static func ksStatistic(_ first: [Double], _ second: [Double]) -> Double {
        let points = (first + second).sorted()
        func cdf(_ sample: [Double], _ x: Double) -> Double { Double(sample.filter { $0 <= x }.count) / Double(sample.count) }
        return points.map { abs(cdf(first, $0) - cdf(second, $0)) }.max() ?? 0
    }

    @Test("before any delivery was timed, unknown users wait about DECOY_DELAY_MS, spread, not zero")
    func coldStartDelay() throws {
        let time = ManualMonotonicTime()
        let handler = try Self.handler(decoyDelay: "20", delivery: RecordingDelivery(), time: time)
        let delays = try (0..<30).map { _ in try Self.milliseconds(handler, Self.unknownCreate, on: time) }.sorted()
        #expect(time.pauses.count == 30, "each unknown user's Create paused once")
        let median = delays[delays.count / 2]
        #expect((12...32).contains(median), "median \(median) ms: \(delays)")
        #expect(delays.last! - delays.first! > 4, "the delays spread: \(delays)")
    }

    @Test("after real deliveries, unknown users' Create times are distributed as real ones (KS test)")
    func measuredDistribution() throws {
        let time = ManualMonotonicTime()
        let handler = try Self.handler(decoyDelay: "150", delivery: SlowDelivery(clock: time), time: time)
        for _ in 0..<16 { _ = try Self.milliseconds(handler, Self.realCreate, on: time) }
        var real: [Double] = []
        var unknown: [Double] = []
        for _ in 0..<60 {
            real.append(try Self.milliseconds(handler, Self.realCreate, on: time))
            unknown.append(try Self.milliseconds(handler, Self.unknownCreate, on: time))
        }
        // Far from the configured 150 ms: the pauses follow the measured deliveries, not DECOY_DELAY_MS.
        #expect(unknown.allSatisfy { $0 < 20 }, "\(unknown.sorted())")
        // The critical value at α = 0.001 for two samples of 60 is 1.95 · √(2/60) ≈ 0.356.
        let statistic = Self.ksStatistic(real, unknown)
        #expect(statistic < 0.356, "KS statistic \(statistic); real \(real.sorted()); unknown \(unknown.sorted())")
    }
}
