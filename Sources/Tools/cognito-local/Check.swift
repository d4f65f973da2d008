import ArgumentParser
import DevelopmentSupport
import Foundation
import Invoker

struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a folder of events against their expectations and print a line per event.",
        discussion: """
            Each NAME.json needs NAME.expected.json beside it: the flow ("flow"), extra settings ("environment"), and \
            the response it must hold ("response", with "*" for any value) and whether a message is "delivered", or \
            the "error" it must raise ({"type", "messageContains"}); Events/README.md shows the format. Events that \
            share settings run in one function, in this process or in --bootstrap; each is judged on its own \
            (STATE_STORE=none unless an expectation sets it). The function's clock stands at the Unix seconds the \
            folder's clock.txt holds, when there is one and --now is not given (Events/ was written for 1763800000). \
            Exits 11 when an event does not do what its expectation says.
            """)

    @Argument(help: ArgumentHelp("The folder of events and expectations.", valueName: "folder"))
    var directory = "Events"

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            var transport = transport
            if transport.now == nil { transport.now = try Self.clock(of: directory) }
            try await CorpusCheck(
                directory: directory, environmentFile: configuration.envFile, overrides: configuration.overrides,
                bootstrap: transport.bootstrap, console: configuration.console, makeTransport: transport.makeTransport
            ).run()
        }
    }

    /// The Unix seconds in the folder's `clock.txt`, the time its events were written for; nil without that file.
    static func clock(of directory: String) throws(InvokerError) -> Int64? {
        do {
            return try CorpusEvent.clock(of: directory)
        } catch {
            throw .invalidConfiguration(error.message)
        }
    }
}
