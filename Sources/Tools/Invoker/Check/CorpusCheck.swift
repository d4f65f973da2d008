import DevelopmentSupport
import Foundation
import ServiceClients

/// `cognito-local check`: replays a folder of events against their expectations (see ``CorpusEvent``) through the
/// function, in this process or in a built bootstrap, one function per group of events that share settings, and
/// prints a line per event and a summary.
///
/// Each event is judged on its own: the limits across sign-ins are off (`STATE_STORE=none`) unless an expectation
/// turns them on, and codes go to an outbox of the check's own, which counts what each event delivered.
public struct CorpusCheck: Sendable {
    /// The folder of `NAME.json` and `NAME.expected.json` files.
    public let directory: String
    /// Settings over the embedded defaults (an env file's, `-e`); each expectation's own come last.
    public let environmentFile: String?
    public let overrides: [String: String]
    /// The bootstrap the events run in (its own steps may be named by the expectations), or nil for this process.
    public let bootstrap: String?
    /// The function for a configuration, in this process or in ``bootstrap`` (see `cognito-local`'s options).
    public let makeTransport: @Sendable (LocalConfiguration) throws(InvokerError) -> any TriggerTransport
    public let console: Console

    public init(
        directory: String, environmentFile: String? = nil, overrides: [String: String] = [:], bootstrap: String?,
        console: Console, makeTransport: @escaping @Sendable (LocalConfiguration) throws(InvokerError) -> any TriggerTransport
    ) {
        self.directory = directory
        self.environmentFile = environmentFile
        self.overrides = overrides
        self.bootstrap = bootstrap
        self.console = console
        self.makeTransport = makeTransport
    }

    /// Checks every event; throws ``InvokerError/checkFailed(failed:total:)`` when any did not do as expected.
    public func run() async throws(InvokerError) {
        let events: [CorpusEvent]
        do {
            events = try CorpusEvent.load(directory: URL(fileURLWithPath: directory))
        } catch {
            throw .usage("check: \(error)")
        }
        guard !events.isEmpty else { throw .usage("check: \(directory) holds no event files (NAME.json with NAME.expected.json)") }
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("cognito-local-check-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let style = console.style
        var failed = 0
        // The passkey API proves each caller's token with Cognito: the corpus's HTTP API events ask a stand-in.
        let cognito: CognitoGetUserStandIn?
        do {
            cognito = events.contains(where: \.isHTTPAPIEvent) ? try CognitoGetUserStandIn(corpus: events) : nil
        } catch {
            throw .usage("check: the Cognito stand-in for the HTTP API events cannot start: \(error)")
        }
        for group in CorpusGroup.grouping(events) {
            let transport = try await transport(for: group, outbox: outbox, cognito: cognito)
            for event in group.events {
                let problems = await problems(of: event, through: transport, outbox: outbox)
                if problems.isEmpty {
                    console.output("\(style.paint("PASS", .green)) \(event.name)")
                } else {
                    failed += 1
                    console.output("\(style.paint("FAIL", .red)) \(event.name)")
                    for problem in problems { console.output("     \(problem)") }
                }
            }
            await transport.shutdown()
        }
        console.output("check: \(events.count - failed) passed, \(failed) failed")
        if failed > 0 { throw .checkFailed(failed: failed, total: events.count) }
    }

    /// The function for a group: the configuration with the group's settings.
    private func transport(
        for group: CorpusGroup, outbox: String, cognito: CognitoGetUserStandIn?
    ) async throws(InvokerError) -> any TriggerTransport {
        var settings = overrides.merging(["STATE_STORE": "none", "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox]) { $1 }
            .merging(group.settings) { $1 }
        if let cognito, settings["COGNITO_IDP_ENDPOINT"] == nil { settings["COGNITO_IDP_ENDPOINT"] = cognito.endpoint }
        return try makeTransport(
            try await LocalConfiguration.current(environmentFile: environmentFile, overrides: settings, bootstrap: bootstrap))
    }

    /// What went differently from the event's expectation.
    private func problems(of event: CorpusEvent, through transport: any TriggerTransport, outbox: String) async -> [String] {
        let sentBefore = (try? OutboxDelivery.messages(at: outbox).count) ?? 0
        let invocation: Invocation
        do {
            invocation = try await transport.invoke(event.bytes)
        } catch {
            return ["the function could not be invoked: \(error)"]
        }
        switch invocation.outcome {
        case .response(let answer):
            let sent = ((try? OutboxDelivery.messages(at: outbox).count) ?? 0) - sentBefore
            return ExpectationCheck.response(answer, to: event) + ExpectationCheck.deliveries(sent, for: event)
        case .functionError(let type, let message):
            // A bootstrap reports only a reference to its log, which holds the detail.
            return ExpectationCheck.error(type: type, message: bootstrap == nil ? message : nil, for: event)
        case .timedOut(let seconds):
            return ["the function timed out after \(LambdaFormat.seconds(seconds)) s"]
        case .runtimeExited(let status):
            return ["the bootstrap exited: \(status)"]
        }
    }
}
