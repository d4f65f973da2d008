import ArgumentParser
import Foundation
import Invoker

/// `cognito-local`: run the Cognito custom-auth triggers on a laptop.
@main
struct CognitoLocal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cognito-local",
        abstract: "Run the Cognito custom-auth triggers locally: invoke events, walk whole sign-ins, serve a Lambda endpoint.",
        discussion: ExitStatusTable.text,
        subcommands: [Invoke.self, SignIn.self, Serve.self, Pool.self, GenerateEvent.self, Check.self, NewStep.self])
}

/// Runs a command body, turning an ``InvokerError`` into one line on standard error and its exit status.
func reportingErrors<T>(_ body: () async throws(InvokerError) -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        let style = TerminalStyle.detect(fileDescriptor: STDERR_FILENO, environment: ProcessInfo.processInfo.environment)
        StandardStream.write("\(style.paint("cognito-local: error:", .red, .bold)) \(error)\n", to: STDERR_FILENO)
        throw ExitCode(error.exitStatus.rawValue)
    }
}

/// Runs `body` with a transport, then shuts the transport down whatever happened.
func using<T>(
    _ transport: any TriggerTransport, _ body: (any TriggerTransport) async throws(InvokerError) -> T
) async throws(InvokerError) -> T {
    let result: Result<T, InvokerError>
    do {
        result = .success(try await body(transport))
    } catch {
        result = .failure(error)
    }
    await transport.shutdown()
    return try result.get()
}

enum ExitStatusTable {
    static let text = """
        Exit status:
          0   success (response returned; sign-in issued tokens)
          1   sign-in failed: Define answered failAuthentication
          2   the function answered with an error
          3   the function timed out
          4   event file missing or unreadable
          5   event file is not JSON
          6   unknown triggerSource
          7   invalid configuration (environment, env file, flags, user table)
          8   the bootstrap did not start
          9   the bootstrap crashed during an invocation
          10  the sign-in needed an answer and none was left
          11  check: an event did not do what its expectation says
          64  usage error
        """
}
