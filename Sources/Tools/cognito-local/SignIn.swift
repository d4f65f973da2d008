import ArgumentParser
import Foundation
import Invoker

struct SignIn: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in",
        abstract: "Walk a whole sign-in the way Cognito drives the triggers, with a transcript of every step.",
        discussion: """
            Interactive by default: asks for the code (shown as delivered to the local outbox) or the CAPTCHA text. \
            With --answers the answers come from the list: @outbox is the code (email or text message) or the \
            sign-in link's token that was delivered, @captcha the CAPTCHA's answer from the catalog, @expected \
            whichever of those the challenge has or, for a step the bootstrap registers (--bootstrap, --flow \
            srp+totp), the answer its expectedAnswer gives (asked of the bootstrap with \
            COGNITO_CHALLENGE_EXPECTED_ANSWER). \
            --client-metadata goes with InitiateAuth and every RespondToAuthChallenge and reaches the triggers as in \
            Cognito: Verify and the Create after an answer get it, Define and the first Create do not. Exit status 0 \
            when tokens are issued, 1 when authentication fails. \
            With --authenticator FILE, passkey flows (passkey, passkey-or-email-code, srp+passkey) need no browser: \
            a software authenticator kept in FILE (created on first use) registers a passkey for the user through \
            the function's registration API, with the claims of the user's access token, when it holds none of \
            theirs, and answers each passkey challenge from the first of PASSKEY_ALLOWED_ORIGINS. A choice of \
            method (choose-method, e.g. of passkey-or-email-code or email-or-sms-code) is answered like any challenge, \
            e.g. --answers passkey or --answers sms-code,@outbox, and goes as ClientMetadata \
            method too.
            """)

    @Option(help: ArgumentHelp("Who signs in.", valueName: "name"))
    var user = LocalDefaults.userName

    @Option(help: ArgumentHelp("The password, for flows starting with srp (asked for when absent).", valueName: "password"))
    var password: String?

    @Option(help: ArgumentHelp("Answers in order, comma-separated, instead of asking: e.g. 000000,@outbox.", valueName: "a,b,…"))
    var answers: String?

    @Option(help: ArgumentHelp("A JSON user table: [{\"userName\", \"password\", \"email\", \"phoneNumber\", \"attributes\": {\"custom:…\": …}}] (default: jane / Correct-Horse-9).", valueName: "file"))
    var users: String?

    @Option(help: ArgumentHelp("A software passkey authenticator kept in this file (created on first use) that registers a passkey and answers passkey challenges.", valueName: "file"))
    var authenticator: String?

    @OptionGroup var clientMetadata: ClientMetadataOptions
    @OptionGroup var configuration: ConfigurationOptions
    @OptionGroup var transport: TransportOptions

    func run() async throws {
        let result = try await reportingErrors { () async throws(InvokerError) -> SignInResult in
            // With a software authenticator, this command plays the pool's GetUser too: the function proves the
            // access tokens its registrations carry there.
            let cognito: CognitoGetUserStandIn?
            do {
                cognito = try authenticator.map { _ in try CognitoGetUserStandIn() }
            } catch {
                throw .usage("sign-in: the local GetUser for passkey registrations cannot start: \(error)")
            }
            let local = try await transport.load(configuration, adding: cognito.map { ["COGNITO_IDP_ENDPOINT": $0.endpoint] } ?? [:])
            let table = try users.map(LocalUserTable.load(path:)) ?? .embedded
            let console = configuration.console
            let source: any AnswerSource = answers.map { ScriptedAnswers($0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)) }
                ?? PromptedAnswers(style: console.style)
            var settings = SignInSettings(
                configuration: local, userName: user, password: password, users: table, clientMetadata: clientMetadata.map)
            if let authenticator, let cognito {
                let origin = local.environment["PASSKEY_ALLOWED_ORIGINS"]?.split(separator: ",").first.map(String.init)
                    ?? LocalDefaults.passkeyOrigin
                settings.passkeyBrowser = PasskeyBrowser(path: authenticator, origin: origin, cognito: cognito)
            }
            return try await using(transport.makeTransport(local)) { transport async throws(InvokerError) in
                try await SignInDriver(transport: transport, settings: settings, answers: source, console: console).run()
            }
        }
        if case .failed = result.outcome { throw ExitCode(CommandExitStatus.authenticationFailed.rawValue) }
    }
}
