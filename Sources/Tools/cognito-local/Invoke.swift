import ArgumentParser
import Invoker

struct Invoke: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Invoke the triggers on one event file and print the response event.",
        discussion: """
            --client-metadata sets entries of the event's request.clientMetadata. The response goes to standard output; the summary (and with --bootstrap, the bootstrap's logs and \
            Lambda's REPORT line) to standard error.
            """)

    @Argument(help: ArgumentHelp("The event JSON file; - reads standard input.", valueName: "event.json"))
    var event: String

    @Flag(help: "Print compact JSON instead of indented.")
    var raw = false

    @OptionGroup var clientMetadata: ClientMetadataOptions
    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            try await using(transport.makeTransport(transport.load(configuration))) { transport async throws(InvokerError) in
                try await EventInvoker(
                    transport: transport, console: configuration.console, raw: raw, clientMetadata: clientMetadata.metadata).invoke(path: event)
            }
        }
    }
}
