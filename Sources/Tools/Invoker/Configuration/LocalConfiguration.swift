import Basics
import ChallengeFlows
import CognitoTriggers
import Foundation
import LosslessJSON
import Platform
import ServiceClients

/// The configuration a local run uses, layered (later wins): the embedded ``LocalDefaults``, the process
/// environment, an env file, then command-line flags.
public struct LocalConfiguration: Sendable {
    /// Every variable the function sees: what the triggers read, plus the rest of the process environment (a
    /// bootstrap child gets all of it).
    public let environment: [String: String]
    /// The triggers' configuration, already validated.
    public let triggers: TriggerConfiguration

    public var flow: SignInFlow { triggers.flow }

    /// The outbox file codes are delivered to; nil when they go out by email (`CODE_DELIVERY=ses`).
    public var outboxPath: String? {
        switch triggers.delivery {
        case .outbox(let path): path
        case .ses: nil
        }
    }

    /// The outbox file text messages are delivered to (`SMS_DELIVERY=outbox`, by default the email outbox); nil when
    /// the flow texts nothing or texts go out through Amazon SNS.
    public var smsOutboxPath: String? {
        switch triggers.smsDelivery {
        case .outbox(let path)?: path
        case .sns?, nil: nil
        }
    }

    /// The CAPTCHA images and answers in force (the configured catalog, or the embedded one).
    public var captchas: [CaptchaEntry] { triggers.captchas }
    /// True when a CAPTCHA provider's siteverify is stood in for locally (``SiteverifyStandIn``).
    public let usesLocalSiteverify: Bool
    /// The steps of its own the bootstrap registers, as it described them (only asked for when the flow names a step
    /// that is not built in); empty otherwise.
    public let ownSteps: [DescribedStep]
    /// The bootstrap to ask for its steps' expected answers, when the function runs in one.
    public let bootstrapSteps: BootstrapSteps?

    /// - Parameters:
    ///   - processEnvironment: the caller's environment.
    ///   - environmentFile: the path of a `KEY=VALUE` file, if one was given.
    ///   - overrides: variables set by flags.
    ///   - ownSteps: steps a bootstrap registers beside the built-in ones, which `CHALLENGE_FLOW` may name.
    ///   - bootstrapSteps: the bootstrap that registers them.
    public init(
        processEnvironment: [String: String], environmentFile: String? = nil, overrides: [String: String] = [:],
        ownSteps: [DescribedStep] = [], bootstrapSteps: BootstrapSteps? = nil
    ) throws(InvokerError) {
        var environment = try Self.layered(processEnvironment: processEnvironment, environmentFile: environmentFile, overrides: overrides)
        if (environment["CAPTCHA_CATALOG"] ?? "").isEmpty {
            environment["CAPTCHA_CATALOG"] = try Self.embeddedCatalogPath()
        }
        // Local runs may use the catalog, whose answers a bot can memorise (a deployment names a widget provider).
        if environment["ALLOW_CAPTCHA_CATALOG"] == nil { environment["ALLOW_CAPTCHA_CATALOG"] = "true" }
        usesLocalSiteverify = try Self.standInForCaptchaProvider(in: &environment)
        do {
            triggers = try TriggerConfiguration(
                environment: environment, secrets: Secrets.read(from: environment),
                captchaCatalog: CaptchaCatalog.read(from: environment), steps: ownSteps)
            _ = try triggers.makeEngine()
        } catch {
            throw .invalidConfiguration(error.description)
        }
        self.environment = environment
        self.ownSteps = ownSteps
        self.bootstrapSteps = bootstrapSteps
    }

    /// The defaults, the process environment, the env file and the flags' variables, each over the one before.
    private static func layered(
        processEnvironment: [String: String], environmentFile: String?, overrides: [String: String]
    ) throws(InvokerError) -> [String: String] {
        var environment = LocalDefaults.environment.merging(processEnvironment) { _, process in process }
        if let environmentFile {
            environment.merge(try Self.read(environmentFile)) { _, file in file }
        }
        environment.merge(overrides) { _, flag in flag }
        return environment
    }

    /// The configuration of the caller's own process, an env file and flags, for a function that runs in the
    /// bootstrap at `bootstrap` (or in this process when nil). When `CHALLENGE_FLOW` names a step that is not built
    /// in, the bootstrap is asked which steps it registers (``BootstrapSteps/describe()``), and the flow is read
    /// with them: a name it does not register either is refused with the whole list.
    public static func current(
        environmentFile: String? = nil, overrides: [String: String] = [:], bootstrap: String?,
        questionTimeout: Duration = .seconds(10)
    ) async throws(InvokerError) -> Self {
        let process = ProcessInfo.processInfo.environment
        let environment = try layered(processEnvironment: process, environmentFile: environmentFile, overrides: overrides)
        guard let bootstrap else {
            return try LocalConfiguration(processEnvironment: process, environmentFile: environmentFile, overrides: overrides)
        }
        let steps = BootstrapSteps(path: bootstrap, environment: environment, timeout: questionTimeout)
        let specification = EnvironmentReader(environment).value("CHALLENGE_FLOW") ?? LocalDefaults.flow
        var ownSteps: [DescribedStep] = []
        if (try? SignInFlow(parsing: specification, registry: StepDescription.registry(steps: []))) == nil {
            let described: [DescribedStep]
            do {
                described = try await steps.describe()
            } catch {
                throw .invalidConfiguration(
                    "CHALLENGE_FLOW=\"\(specification)\" names a step that is not built in, and the bootstrap \(bootstrap) cannot say which steps it registers: \(error)")
            }
            ownSteps = described.filter { !$0.builtIn }
        }
        return try LocalConfiguration(
            processEnvironment: process, environmentFile: environmentFile, overrides: overrides, ownSteps: ownSteps,
            bootstrapSteps: steps)
    }

    /// The configuration of the caller's own process, an env file and flags.
    public static func current(environmentFile: String? = nil, overrides: [String: String] = [:]) throws(InvokerError) -> Self {
        try LocalConfiguration(
            processEnvironment: ProcessInfo.processInfo.environment, environmentFile: environmentFile,
            overrides: overrides)
    }

    private static func read(_ path: String) throws(InvokerError) -> [String: String] {
        let bytes: [UInt8]
        do {
            bytes = try LocalFile.contents(of: path)
        } catch {
            throw .invalidConfiguration("env file: \(error)")
        }
        do {
            return try EnvironmentFile.parse(String(decoding: bytes, as: UTF8.self))
        } catch {
            throw .invalidConfiguration("env file \(path), \(error)")
        }
    }

    /// With a CAPTCHA provider and no `CAPTCHA_ENDPOINT`, points the triggers at a local siteverify stand-in (and
    /// fills in local site key, secret and hostname where none are set), so that the flow runs offline.
    private static func standInForCaptchaProvider(in environment: inout [String: String]) throws(InvokerError) -> Bool {
        guard let provider = environment["CAPTCHA_PROVIDER"].flatMap(CaptchaProvider.init(rawValue:)),
              (environment["CAPTCHA_ENDPOINT"] ?? "").isEmpty
        else { return false }
        for (variable, value) in [
            ("CAPTCHA_SITE_KEY", "local-site-key"), ("CAPTCHA_SECRET", "local-siteverify-secret"),
            ("CAPTCHA_ALLOWED_HOSTNAMES", "localhost"),
        ] where (environment[variable] ?? "").isEmpty {
            environment[variable] = value
        }
        let hostname = environment["CAPTCHA_ALLOWED_HOSTNAMES"]?.split(separator: ",").first.map(String.init) ?? "localhost"
        let action = EnvironmentReader(environment).value("CAPTCHA_ACTION")
        do {
            environment["CAPTCHA_ENDPOINT"] = try startedStandIn(hostname: hostname, action: action).endpoint(for: provider)
        } catch {
            throw .invalidConfiguration("the local siteverify stand-in could not start: \(error)")
        }
        return true
    }

    /// One stand-in per process, started by the first configuration that needs it.
    private static let runningStandIn = PosixLock<SiteverifyStandIn?>(nil)

    private static func startedStandIn(hostname: String, action: String?) throws -> SiteverifyStandIn {
        try runningStandIn.withLock { running in
            if let running { return running }
            let started = try SiteverifyStandIn(hostname: hostname, action: action)
            running = started
            return started
        }
    }

    /// Writes the embedded catalog to a temporary file (the triggers read catalogs from files) and returns its path.
    private static func embeddedCatalogPath() throws(InvokerError) -> String {
        let catalog = JSONValue.array(LocalDefaults.captchas.map {
            ["imageURL": .string($0.imageURL), "answer": .string($0.answer)]
        })
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("cognito-local-captcha-catalog.json")
        do {
            try Data(catalog.serialized(.pretty)).write(to: file, options: .atomic)
        } catch {
            throw .invalidConfiguration("cannot write the embedded CAPTCHA catalog to \(file.path): \(error.localizedDescription)")
        }
        return file.path
    }
}
