import Foundation
import Invoker
import LosslessJSON
import Testing

/// The `cognito-local` executable, run as a process.
@Suite("cognito-local, as a process")
struct CommandLineTests {
    static func cognitoLocal(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) async throws -> ProcessOutput {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        return try await run(
            try BuiltProducts.executable("cognito-local"), arguments,
            environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")].merging(environment) { _, new in new }, input: input)
    }

    @Test("invoke prints the response event on stdout and a summary on stderr")
    func invokeEventFile() async throws {
        let result = try await Self.cognitoLocal(["invoke", Repository.path("Events/email-code/01-define-start.json")])
        #expect(result.status == 0, "\(result.stderr)")
        let response = try JSONValue(parsing: result.stdout).objectValue?["response"]?.objectValue
        #expect(response?["challengeName"] == "CUSTOM_CHALLENGE")
        #expect(result.stdout.split(separator: "\n").count > 10, "indented by default")
        #expect(result.stderr.contains("DefineAuthChallenge → next challenge CUSTOM_CHALLENGE"))
        #expect(!result.stderr.contains("\u{1B}["), "no colour when stderr is not a terminal")
    }

    @Test("invoke --raw prints one compact line; the env file and flags configure the flow")
    func invokeRawWithEnvFile() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let envFile = try scratch.write("local.env", "# SRP first\nCHALLENGE_FLOW=\"srp-email-code\"\n")
        let result = try await Self.cognitoLocal([
            "invoke", "--raw", "--env-file", envFile, Repository.path("Events/srp-email-code/01-define-after-srp-a.json"),
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").count == 1)
        #expect(result.stdout.contains(#""challengeName":"PASSWORD_VERIFIER""#))
        let overridden = try await Self.cognitoLocal([
            "invoke", "--raw", "--env-file", envFile, "--flow", "email-code",
            Repository.path("Events/srp-email-code/01-define-after-srp-a.json"),
        ])
        #expect(overridden.stdout.contains(#""failAuthentication":true"#), "the flag wins over the env file")
    }

    @Test("each class of error has one line on stderr and its own exit status", arguments: [
        (["invoke", "/nonexistent/event.json"], CommandExitStatus.eventFileUnreadable, "cannot read event file"),
        (["invoke", Repository.path("Events/invalid/not-json.json")], .invalidJSON, "is not valid JSON"),
        (["invoke", Repository.path("Events/invalid/unknown-trigger-source.json")], .unknownTrigger, "PreSignUp_SignUp"),
        (["invoke", "--flow", "sms", Repository.path("Events/email-code/01-define-start.json")], .invalidConfiguration, "CHALLENGE_FLOW"),
        (["invoke", Repository.path("Events/invalid/create-when-no-challenge-is-due.json")], .functionError, "Function.ChallengeNotCreated"),
        (["invoke", "--bootstrap", "/nonexistent/bootstrap", Repository.path("Events/email-code/01-define-start.json")], .bootstrapDidNotStart, "no such file"),
    ])
    func errorClasses(arguments: [String], status: CommandExitStatus, message: String) async throws {
        let result = try await Self.cognitoLocal(arguments)
        #expect(result.status == status.rawValue, "\(result.stderr)")
        let errorLines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("cognito-local: error:") }
        #expect(errorLines.count == 1)
        #expect(errorLines.first?.contains(message) == true, "\(result.stderr)")
    }

    @Test("a wrong command line exits with the usage status")
    func usage() async throws {
        let result = try await Self.cognitoLocal(["invoke"])
        #expect(result.status == CommandExitStatus.usage.rawValue)
        #expect(result.stderr.contains("Missing expected argument"))
    }

    @Test("sign-in exits 0 with tokens, 1 when authentication fails, 10 when answers run out", arguments: [
        ("@outbox", CommandExitStatus.success, "Signed in as jane"),
        ("1,2,3", .authenticationFailed, "Authentication failed"),
        ("000000", .noMoreAnswers, "no answer left"),
    ])
    func signIn(answers: String, status: CommandExitStatus, message: String) async throws {
        let result = try await Self.cognitoLocal(["sign-in", "--answers", answers])
        #expect(result.status == status.rawValue, "\(result.stdout)\n\(result.stderr)")
        #expect((result.stdout + result.stderr).contains(message))
    }

    @Test("sign-in reads answers from standard input when there is no --answers")
    func signInFromStandardInput() async throws {
        let result = try await Self.cognitoLocal(["sign-in", "--flow", "captcha", "-e", "ALLOW_CAPTCHA_ONLY_SIGN_IN=true"], input: "wrong\nwrong\nwrong\n")
        #expect(result.status == CommandExitStatus.authenticationFailed.rawValue, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("CAPTCHA text › wrong"))
    }

    @Test("at the prompt, @captcha and @outbox stand for the catalog's text and the delivered code, as in --answers")
    func specialAnswersAtThePrompt() async throws {
        let result = try await Self.cognitoLocal(["sign-in", "--flow", "captcha-email-code"], input: "@captcha\n@expected\n@outbox\n")
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("it exists nowhere; answer @captcha for its text"))
        #expect(result.stdout.components(separatedBy: "→ answer correct").count == 3)
        let captcha = try #require(LocalDefaults.captchas.first { result.stdout.contains("= \($0.answer)") })
        #expect(result.stdout.contains("ANSWER=\(captcha.answer)"))
    }

    @Test("sign-in with a user table from a file")
    func signInUserTable() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let users = try scratch.write("users.json", #"[{"userName": "ana", "password": "Pass-Word-22", "email": "ana@example.org"}]"#)
        let result = try await Self.cognitoLocal([
            "sign-in", "--users", users, "--user", "ana", "--flow", "srp-email-code", "--password", "Pass-Word-22", "--answers", "@outbox",
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("delivered to a***@e***.org: "))
    }

    @Test("sign-in answers the choice of srp+email-or-sms-code and email-or-sms-code (sms-code texts the code, email-code emails it); magic-link signs in with the token", arguments: [
        (["--flow", "srp+email-or-sms-code", "--password", LocalDefaults.password], "sms-code,@outbox", "📱 texted to "),
        (["--flow", "email-or-sms-code"], "email-code,@outbox", "✉ delivered to j***@e***.com: "),
        (["--flow", "magic-link"], "@outbox", "✉ sign-in link delivered to j***@e***.com: http://localhost:3000/sign-in#token="),
    ])
    func signInByTextAndLink(arguments: [String], answers: String, note: String) async throws {
        let result = try await Self.cognitoLocal(["sign-in", "--answers", answers, "--no-color"] + arguments)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(note), "\(result.stdout)")
        #expect(result.stdout.contains("Signed in as jane"))
    }

    @Test("generate-event and invoke put --client-metadata in the event's request; generate-event --method chooses the step")
    func clientMetadataFlag() async throws {
        let generated = try await Self.cognitoLocal([
            "generate-event", "--trigger", "create", "--flow", "email-or-sms-code", "--step", "2", "--method", "sms-code",
            "--client-metadata", "app=web", "--raw",
        ])
        #expect(generated.status == 0, "\(generated.stderr)")
        let request = try JSONValue(parsing: Array(generated.stdout.utf8)).objectValue?["request"]?.objectValue
        #expect(request?["clientMetadata"] == ["app": "web", "method": "sms-code"])
        #expect(request?["userAttributes"]?.objectValue?["phone_number"] == .string(LocalDefaults.phoneNumber))
        let invoked = try await Self.cognitoLocal([
            "invoke", "--raw", "--flow", "email-or-sms-code", "--client-metadata", "method=email-code", "--client-metadata", "app=mobile", "-",
        ], input: generated.stdout)
        #expect(invoked.status == 0, "\(invoked.stderr)")
        let response = try JSONValue(parsing: Array(invoked.stdout.utf8)).objectValue
        #expect(response?["request"]?.objectValue?["clientMetadata"] == ["app": "mobile", "method": "email-code"])
        #expect(response?["response"]?.objectValue?["publicChallengeParameters"]?.objectValue?["challenge"] == "EMAIL_CODE", "the flag wins")
        let unknown = try await Self.cognitoLocal(["generate-event", "--trigger", "create", "--flow", "email-or-sms-code", "--method", "fax"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("email-code, sms-code"), "\(unknown.stderr)")
        let refused = try await Self.cognitoLocal(["sign-in", "--client-metadata", "app"])
        #expect(refused.status == CommandExitStatus.usage.rawValue)
    }

    @Test("generate-event output invokes through standard input")
    func generateThenInvoke() async throws {
        let generated = try await Self.cognitoLocal(["generate-event", "--trigger", "verify", "--flow", "captcha", "-e", "ALLOW_CAPTCHA_ONLY_SIGN_IN=true"])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stderr.contains("right answer: "))
        let invoked = try await Self.cognitoLocal(["invoke", "--raw", "--flow", "captcha", "-e", "ALLOW_CAPTCHA_ONLY_SIGN_IN=true", "-"], input: generated.stdout)
        #expect(invoked.status == 0, "\(invoked.stderr)")
        #expect(invoked.stdout.contains(#""answerCorrect":true"#))
    }
}
