import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
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
            environment: group.events[0].environment(outbox: outbox, cognito: CorpusEvent.cognito?.endpoint)
                .merging(FakeTime.environment(frozenAt: CorpusEvent.now, library: library)) { $1 })

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
        await emulator.shutdown()
        let log = bootstrap.standardError()
        for (event, fragment, answer) in errorFragments {
            #expect(answer.contains(fragment) || log.contains(fragment), "\(event): \"\(fragment)\" neither answered nor logged")
        }
    }
}
