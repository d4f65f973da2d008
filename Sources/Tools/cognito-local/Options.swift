import ArgumentParser
import DevelopmentSupport
import Foundation
import Invoker

/// Where the triggers' configuration comes from, over the embedded development defaults.
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A file of KEY=VALUE lines (# comments, quotes allowed).", valueName: "file"))
    var envFile: String?

    @Option(name: [.customShort("e"), .long], help: ArgumentHelp("Set one variable, e.g. -e MAX_ATTEMPTS=5 (repeatable).", valueName: "KEY=VALUE"))
    var env: [String] = []

    @Option(help: ArgumentHelp("The sign-in flow (CHALLENGE_FLOW): email-code, srp-email-code, captcha, captcha-email-code, sms-code, email-or-sms-code, magic-link, passkey, passkey-or-email-code, or steps joined by + from srp (first only), captcha, email-code, sms-code, magic-link and passkey, e.g. srp+captcha+email-code, one place of which may offer a choice joined by | or named (srp+email-or-sms-code is srp+email-code|sms-code; a challenge before it, choose-method, asks which); with --bootstrap also the steps that bootstrap registers (e.g. srp+totp).", valueName: "flow"))
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

    /// The configuration; with a bootstrap, a flow may name the steps it registers (it is asked for them).
    func load(bootstrap: String? = nil, adding extra: [String: String] = [:]) async throws(InvokerError) -> LocalConfiguration {
        try await LocalConfiguration.current(
            environmentFile: envFile, overrides: overrides.merging(extra) { _, added in added }, bootstrap: bootstrap)
    }

    var console: Console {
        Console.standard(environment: ProcessInfo.processInfo.environment, colourDisabled: noColor)
    }
}

/// The app's `ClientMetadata`, passed in the request of the events a command builds.
struct ClientMetadataOptions: ParsableArguments {
    @Option(name: .customLong("client-metadata"), help: ArgumentHelp("One ClientMetadata entry in the events' request, e.g. app=web (repeatable).", valueName: "KEY=VALUE"))
    var entries: [String] = []

    func validate() throws {
        for entry in entries where !entry.contains("=") || entry.hasPrefix("=") {
            throw ValidationError("--client-metadata expects KEY=VALUE, got \"\(entry)\"")
        }
    }

    /// The entries, the last one for a key winning; empty when none were given.
    var map: [String: String] {
        var values: [String: String] = [:]
        for entry in entries {
            let parts = entry.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            values[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return values
    }

    /// The map, or nil (no `clientMetadata` in the events) when no entry was given.
    var metadata: [String: String]? { entries.isEmpty ? nil : map }
}

/// Where the function runs: in this process, or in a built bootstrap behind a local Runtime API.
struct TransportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Run the function in this built bootstrap executable behind a local Runtime API (e.g. .build/debug/bootstrap).", valueName: "path"))
    var bootstrap: String?

    @Option(help: ArgumentHelp("Seconds one invocation may take before it is stopped (Cognito allows 5).", valueName: "seconds"))
    var timeout: Double = 5

    @Option(help: ArgumentHelp("The function's memory size in MB (AWS_LAMBDA_FUNCTION_MEMORY_SIZE).", valueName: "MB"))
    var memory = 128

    @Flag(help: "Print each invocation's metrics (the embedded-metric-format line the function writes) in the transcript.")
    var metrics = false

    @Option(help: ArgumentHelp("The function's wall clock, standing still at these Unix seconds (with --bootstrap through libfaketime), e.g. 1763800000 for Events/.", valueName: "seconds"))
    var now: Int64?

    func validate() throws {
        guard timeout > 0, timeout <= 900 else { throw ValidationError("--timeout must be between 0 and 900 seconds") }
        guard (128...10240).contains(memory) else { throw ValidationError("--memory must be between 128 and 10240 MB") }
    }

    /// The configuration of `options`, with the steps this bootstrap registers when the flow names one.
    func load(_ options: ConfigurationOptions, adding extra: [String: String] = [:]) async throws(InvokerError) -> LocalConfiguration {
        try await options.load(bootstrap: bootstrap, adding: extra)
    }

    /// The transport the options describe, for this configuration.
    func makeTransport(_ configuration: LocalConfiguration) throws(InvokerError) -> any TriggerTransport {
        guard let bootstrap else { return try InProcessTransport(configuration: configuration, metrics: metrics, now: now) }
        var environment = configuration.environment
        if let now {
            guard let library = FakeTime.library else {
                throw .invalidConfiguration("--now with --bootstrap needs libfaketime to set the bootstrap's clock (apt-get install faketime)")
            }
            environment.merge(FakeTime.environment(frozenAt: now, library: library)) { $1 }
        }
        return BootstrapTransport(settings: BootstrapSettings(
            path: bootstrap, environment: environment, timeout: .milliseconds(Int64((timeout * 1000).rounded())),
            memorySizeMB: memory, capturesMetrics: metrics))
    }
}
