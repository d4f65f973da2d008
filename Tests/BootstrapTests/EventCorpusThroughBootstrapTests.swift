import EmailDelivery
import EventCorpus
import Foundation
import LosslessJSON
import RuntimeAPIEmulator
import TestSupport
import Testing

/// Every file under Events/ through the built `bootstrap`, a child process served by the Runtime API emulator, with
/// its clock frozen at the corpus's time by libfaketime: the answers must be what the in-process corpus test
/// (CognitoTriggersTests' EventCorpusTests) expects of the handler, byte-order marks left out included.
@Suite struct EventCorpusThroughBootstrapTests {
    /// The corpus in groups that share a configuration: one bootstrap serves each group's events in turn.
    static let groups = CorpusGroup.grouping((try? CorpusEvent.all()) ?? [])

    @Test func everyEventIsInAGroup() throws {
        let events = try CorpusEvent.all()
        #expect(!events.isEmpty)
        #expect(Self.groups.flatMap { $0.events.map(\.name) }.sorted() == events.map(\.name).sorted())
    }

    @Test(
        .enabled(if: FakeTime.library != nil, "needs libfaketime (Debian package faketime; `.ci/setup --test` installs it)"),
        .timeLimit(.minutes(2)),
        arguments: groups)
    func eventsProduceTheirExpectedResponses(_ group: CorpusGroup) async throws {
        let library = try #require(FakeTime.library)
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: address,
            environment: group.events[0].environment(outbox: outbox).merging(FakeTime.environment(frozenAt: CorpusEvent.now, library: library)) { $1 })

        /// Error messages each error event must have logged or answered (the client sees only a reference).
        var errorFragments: [(event: String, fragment: String, answer: String)] = []
        for event in group.events {
            let sentBefore = try OutboxDelivery.messages(at: outbox).count
            let outcome = try await invoke(emulator, event.bytes)
            if let expectedError = event.expectation["error"]?.objectValue {
                guard case .functionError(let reported) = outcome else {
                    Issue.record("\(event.name): expected the error \(expectedError), got \(outcome)")
                    continue
                }
                #expect(reported.errorType == expectedError["type"]?.stringValue, "\(event.name)")
                let fragment = try #require(expectedError["messageContains"]?.stringValue, "\(event.name)")
                errorFragments.append((event.name, fragment, String(decoding: reported.body, as: UTF8.self)))
                continue
            }
            guard case .response(let answer) = outcome else {
                Issue.record("\(event.name): expected a response, got \(outcome)")
                continue
            }
            #expect(!answer.starts(with: [0xEF, 0xBB, 0xBF]), "\(event.name): the response starts with a byte-order mark")
            let problems = ExpectationCheck.response(answer, to: event)
            #expect(problems.isEmpty, "\(event.name):\n\(problems.joined(separator: "\n"))")

            let sent = try OutboxDelivery.messages(at: outbox).dropFirst(sentBefore)
            if let delivered = event.expectation["delivered"]?.boolValue {
                #expect(sent.count == (delivered ? 1 : 0), "\(event.name): \(sent.count) messages sent")
            }
            // The outbox stamps messages with the bootstrap's clock: the frozen one.
            #expect(sent.allSatisfy { $0.sentAt == CorpusEvent.now }, "\(event.name): sent at \(sent.map(\.sentAt))")
        }

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        try await emulator.shutdown()
        let log = bootstrap.standardError()
        for (event, fragment, answer) in errorFragments {
            #expect(answer.contains(fragment) || log.contains(fragment), "\(event): \"\(fragment)\" neither answered nor logged")
        }
    }
}

/// libfaketime, preloaded into the program (not through the `faketime` wrapper, which would run it as a grandchild
/// that a signal to the wrapper does not reach): the program reads a frozen wall clock (CLOCK_REALTIME, which
/// `SystemClock` uses), while the monotonic clocks its timeouts use keep running.
enum FakeTime {
    static let library = [
        "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1",
    ].first { FileManager.default.fileExists(atPath: $0) }

    /// The settings that freeze the clock of a program started with them at `seconds` since 1970.
    static func environment(frozenAt seconds: Int64, library: String) -> [String: String] {
        ["LD_PRELOAD": library, "FAKETIME": absoluteTime(seconds), "TZ": "UTC", "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    /// `seconds` since 1970 as libfaketime's absolute time, `YYYY-MM-DD hh:mm:ss` read in the time zone `TZ` (UTC),
    /// without a leading `@`: the clock stands still there instead of starting from it.
    static func absoluteTime(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
