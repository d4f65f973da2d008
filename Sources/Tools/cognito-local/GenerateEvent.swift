import ArgumentParser
import Invoker

extension EventGenerator.Trigger: ExpressibleByArgument {}

struct GenerateEvent: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-event",
        abstract: "Print a realistic trigger event for a flow and step (the shapes of Events/).",
        discussion: """
            Earlier challenges in the session are issued for real by the configured triggers, so the event invokes \
            as it would in a sign-in: `cognito-local generate-event --trigger verify | cognito-local invoke -`. \
            With --bootstrap they are issued by that bootstrap, and the flow may name the steps it registers. \
            For Verify, the right answer is printed on standard error (for a step of the bootstrap's own, the \
            answer its expectedAnswer gives, when it can tell). \
            In a flow with a choice (passkey-or-email-code, email-or-sms-code, a|b), --method names the step chosen \
            at its first challenge, choose-method (default: the first offered): that challenge's Verify answers it, \
            and it goes as ClientMetadata method with that Verify and every Create and Verify after it, so --step 2 \
            is the chosen step's challenge.
            """)

    @Option(help: ArgumentHelp("define, create or verify.", valueName: "trigger"))
    var trigger: EventGenerator.Trigger

    @Option(help: ArgumentHelp("password (srp flows: before the password), N (the N-th custom challenge is due), or done.", valueName: "step"))
    var step = "1"

    @Option(help: ArgumentHelp("Wrong answers already given to the step.", valueName: "n"))
    var wrong = 0

    @Option(help: ArgumentHelp("An explicit session instead of --step: srp, password[:false], right, wrong, or NAME[:true|false], comma-separated.", valueName: "list"))
    var session: String?

    @Option(help: ArgumentHelp("Verify's challengeAnswer (default: the right answer).", valueName: "text"))
    var answer: String?

    @Option(help: ArgumentHelp("In a flow with a choice, the step chosen at choose-method (default: the first offered), e.g. sms-code.", valueName: "name"))
    var method: String?

    @Option(help: ArgumentHelp("The user; one not in the user table gets userNotFound: true.", valueName: "name"))
    var user = LocalDefaults.userName

    @Option(help: ArgumentHelp("A JSON user table (see sign-in).", valueName: "file"))
    var users: String?

    @Flag(help: "Print compact JSON instead of indented.")
    var raw = false

    @OptionGroup var clientMetadata: ClientMetadataOptions
    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func validate() throws {
        guard EventGenerator.Step(parsing: step) != nil else { throw ValidationError("--step expects password, a step number from 1, or done") }
        guard wrong >= 0 else { throw ValidationError("--wrong cannot be negative") }
        if let session {
            for token in session.split(separator: ",") where EventGenerator.SessionToken(parsing: String(token)) == nil {
                throw ValidationError("--session: \"\(token)\" is not srp, password[:false], right, wrong or NAME[:true|false]")
            }
        }
    }

    func run() async throws {
        try await reportingErrors { () async throws(InvokerError) in
            let local = try await transport.load(configuration)
            let table = try users.map(LocalUserTable.load(path:)) ?? .embedded
            let identity = table.user(named: user)?.identity ?? .unknownUser(user)
            let bootstrap: (any TriggerTransport)? = transport.bootstrap == nil ? nil : try transport.makeTransport(local)
            let outcome: Result<EventGenerator.Generated, InvokerError>
            do throws(InvokerError) {
                let generator = try EventGenerator(
                    configuration: local, identity: identity, clientMetadata: clientMetadata.metadata, method: method,
                    transport: bootstrap)
                let tokens: [EventGenerator.SessionToken]
                if let session {
                    tokens = session.split(separator: ",").compactMap { EventGenerator.SessionToken(parsing: String($0)) }
                } else {
                    tokens = try generator.tokens(for: EventGenerator.Step(parsing: step) ?? .custom(1), wrongAnswers: wrong)
                }
                outcome = .success(try await generator.generate(trigger, session: tokens, answer: answer))
            } catch {
                outcome = .failure(error)
            }
            await bootstrap?.shutdown()
            let generated = try outcome.get()
            let console = configuration.console
            console.output(generated.text(compact: raw))
            if let right = generated.rightAnswer {
                console.diagnostics("right answer: \(right) (valid for this CODE_HASH_SECRET until the challenge expires)")
            }
        }
    }
}

