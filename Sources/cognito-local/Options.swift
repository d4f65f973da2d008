import ArgumentParser
import Foundation
import Invoker

/// Where the triggers' configuration comes from, over the embedded development defaults.
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A file of KEY=VALUE lines (# comments, quotes allowed).", valueName: "file"))
    var envFile: String?

    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Set one variable, e.g. -e MAX_ATTEMPTS=5 (repeatable).", valueName: "KEY=VALUE"))
    var env: [String] = []

    @Option(help: ArgumentHelp("The sign-in flow (CHALLENGE_FLOW): email-code, srp-email-code, captcha, captcha-email-code, or steps like srp+captcha+email-code.", valueName: "flow"))
    var flow: String?

    @Flag(name: .customLong("no-color"), help: "Never colour the output (also: NO_COLOR=1).")
    var noColor = false

    func validate() throws {
        for assignment in env where !assignment.contains("=") {
            throw ValidationError("-e expects KEY=VALUE, got \"\(assignment)\"")
        }
    }

    /// The flags' variables, the last assignment winning.
    var overrides: [String: String] {
        var values: [String: String] = [:]
        for assignment in env {
            let parts = assignment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        if let flow { values["CHALLENGE_FLOW"] = flow }
        return values
    }

    func load() throws(InvokerError) -> LocalConfiguration {
        try LocalConfiguration.current(environmentFile: envFile, overrides: overrides)
    }

    var console: Console {
        Console.standard(environment: ProcessInfo.processInfo.environment, colourDisabled: noColor)
    }
}
