import ArgumentParser
import Dispatch
import Foundation
import Invoker

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the Lambda Invoke API locally, as the Runtime Interface Emulator does.",
        discussion: """
            POST an event to http://HOST:PORT/2015-03-31/functions/function/invocations with Content-Type: \
            application/json (curl -H, or aws lambda invoke --endpoint-url). Requests under another Host, from a web \
            page of another origin, or with a text/plain or form body are refused. Concurrent callers wait their turn; a bootstrap that dies is started again on the next \
            invocation. Prints "Listening on http://HOST:PORT" when ready, one line per invocation on standard error, \
            and stops on Ctrl-C or SIGTERM.
            """)

    @Option(help: ArgumentHelp("The address to listen on (only loopback is sensible).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 9000

    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            let console = configuration.console
            try await using(transport.makeTransport(transport.load(configuration))) { transport async throws(InvokerError) in
                let endpoint = InvokeEndpoint(transport: transport) { invocation in
                    var line = "\(invocation.requestId)  \(invocation.outcome)"
                    if let summary = invocation.summary { line += " — \(summary)" }
                    if let report = invocation.report { line += "\n" + report.line }
                    console.diagnostics(line)
                }
                let address: String
                do {
                    address = try await endpoint.start(host: host, port: port)
                } catch {
                    throw .usage("cannot listen on \(host):\(port): \(error)")
                }
                console.output("Listening on http://\(address)")
                console.diagnostics(
                    "POST http://\(address)/2015-03-31/functions/function/invocations  (function: \(transport.label))")
                await waitForTermination()
                console.diagnostics("stopping")
                await endpoint.shutdown()
            }
        }
    }
}
