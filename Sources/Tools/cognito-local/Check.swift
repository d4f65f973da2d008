import ArgumentParser
import Invoker

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a folder of events against their expectations and print a line per event.",
        discussion: """
            Each NAME.json needs NAME.expected.json beside it: the flow ("flow"), extra settings ("environment"), and \
            the response it must hold ("response", with "*" for any value) and whether a message is "delivered", or \
            the "error" it must raise ({"type", "messageContains"}); Events/README.md shows the format. Events that \
            share settings run in one function, in this process or in --bootstrap; each is judged on its own \
            (STATE_STORE=none unless an expectation sets it). Events/ was written for --now 1763800000. Exits 11 \
            when an event does not do what its expectation says.
            """)

    @Argument(help: ArgumentHelp("The folder of events and expectations.", valueName: "folder"))
    var directory = "Events"

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            let transport = transport
            try await CorpusCheck(
                directory: directory, environmentFile: configuration.envFile, overrides: configuration.overrides,
                bootstrap: transport.bootstrap, console: configuration.console, makeTransport: transport.makeTransport
            ).run()
        }
    }
}
