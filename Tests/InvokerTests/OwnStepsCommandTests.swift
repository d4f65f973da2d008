import Foundation
import Testing

/// The TOTP example's bootstrap (Examples/TOTPStep), when it is built: `TOTP_BOOTSTRAP`, or the example's own
/// debug build.
enum TOTPExample {
    static let bootstrap: String? = {
        if let path = ProcessInfo.processInfo.environment["TOTP_BOOTSTRAP"] {
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let build = Repository.root.appendingPathComponent("Examples/TOTPStep/.build")
        let candidates = ["debug"] + ((try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []).map { "\($0)/debug" }
        return candidates.map { build.appendingPathComponent($0).appendingPathComponent("totp-bootstrap").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static let notBuilt: Comment = "the TOTP example's bootstrap is not built: swift build --package-path Examples/TOTPStep --product totp-bootstrap"
    static let secret = "JBSWY3DPEHPK3PXP"

    /// A users table whose jane has a TOTP secret (and an unverified address: TOTP needs none).
    static func usersTable(in scratch: ScratchDirectory) throws -> String {
        try scratch.write("users.json", """
            [{"userName": "jane", "password": "Correct-Horse-9", "email": "jane.doe@example.com",
              "attributes": {"custom:totp_secret": "\(secret)", "email_verified": "false"}}]
            """)
    }
}

/// `cognito-local` with a bootstrap that registers a step of its own: the bootstrap describes its steps, the flow may
/// name them, and sign-ins through them work with scripted answers.
@Suite("cognito-local with a bootstrap's own steps, as a process")
struct OwnStepsCommandTests {
    static func cognitoLocal(_ arguments: [String], scratch: ScratchDirectory) async throws -> ProcessOutput {
        try await run(
            try BuiltProducts.executable("cognito-local"), arguments,
            environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl"), "NO_COLOR": "1"])
    }

    @Test("the bootstrap prints its step registry for COGNITO_CHALLENGE_DESCRIBE=1 and --describe, and exits 0 without a Runtime API")
    func describe() async throws {
        let bootstrap = try BuiltProducts.executable("bootstrap")
        for (arguments, environment) in [([String](), ["COGNITO_CHALLENGE_DESCRIBE": "1"]), (["--describe"], [:])] {
            let result = try await run(bootstrap, arguments, environment: environment, timeout: .seconds(20))
            #expect(result.status == 0, "\(result.stderr)")
            let steps = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])["steps"] as? [[String: Any]]
            let email = try #require(steps?.first { $0["name"] as? String == "email-code" })
            #expect(email["kind"] as? String == "EMAIL_CODE")
            #expect(email["provesIdentity"] as? Bool == true && email["deliversAnswer"] as? Bool == true)
            #expect(email["deliveryChannels"] as? [String] == ["email"])
            #expect(email["builtIn"] as? Bool == true)
        }
        let unknown = try await run(bootstrap, ["--expected-answer", #"{"step": "word"}"#])
        #expect(unknown.status == 1)
        #expect(unknown.stdout.contains(#"no step is named \"word\""#), "\(unknown.stdout)")
    }

    @Test("the TOTP example's bootstrap describes totp and gives the code of the user's secret as its expected answer",
          .enabled(if: TOTPExample.bootstrap != nil, TOTPExample.notBuilt))
    func describeTOTP() async throws {
        let bootstrap = try #require(TOTPExample.bootstrap)
        let described = try await run(bootstrap, ["--describe"])
        #expect(described.stdout.contains(#"{"name":"totp","kind":"TOTP","provesIdentity":true,"deliversAnswer":false,"deliveryChannels":[],"builtIn":false}"#), "\(described.stdout)")
        let expected = try await run(bootstrap, [], environment: [
            "COGNITO_CHALLENGE_EXPECTED_ANSWER": #"{"step": "totp", "userName": "jane", "userAttributes": {"custom:totp_secret": "\#(TOTPExample.secret)"}}"#,
        ])
        #expect(expected.status == 0)
        #expect(expected.stdout.range(of: #"^\{"expectedAnswer":"[0-9]{6}"\}\n$"#, options: .regularExpression) != nil, "\(expected.stdout)")
    }

    @Test("sign-in --flow srp+totp through the TOTP bootstrap: the step's kind and parameters in the transcript, a wrong code, then @expected",
          .enabled(if: TOTPExample.bootstrap != nil, TOTPExample.notBuilt))
    func signInWithExpectedAnswer() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let result = try await Self.cognitoLocal([
            "sign-in", "--bootstrap", try #require(TOTPExample.bootstrap), "--flow", "srp+totp",
            "--users", try TOTPExample.usersTable(in: scratch), "--password", "Correct-Horse-9", "--answers", "000000,@expected",
        ], scratch: scratch)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("step totp (kind TOTP, the bootstrap's own) · public challenge parameters: attemptsLeft=3 digits=6 period=30"), "\(result.stdout)")
        #expect(result.stdout.contains("expected answer (the step's expectedAnswer): "))
        #expect(result.stdout.contains("answer wrong"))
        #expect(result.stdout.contains("Signed in as jane"))
    }

    @Test("generate-event --bootstrap gives the right TOTP on standard error; sign-in takes it as a literal answer",
          .enabled(if: TOTPExample.bootstrap != nil, TOTPExample.notBuilt))
    func literalAnswerFromGenerateEvent() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bootstrap = try #require(TOTPExample.bootstrap)
        let users = try TOTPExample.usersTable(in: scratch)
        // Both commands at one frozen time: on a loaded machine the second may start more than a TOTP step later.
        let now = String(Int(Date().timeIntervalSince1970))
        let generated = try await Self.cognitoLocal([
            "generate-event", "--trigger", "verify", "--bootstrap", bootstrap, "--flow", "totp", "--users", users, "--now", now,
        ], scratch: scratch)
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(generated.stdout.contains(#""triggerSource" : "VerifyAuthChallengeResponse_Authentication""#) || generated.stdout.contains("VerifyAuthChallengeResponse_Authentication"))
        let line = try #require(generated.stderr.split(separator: "\n").first { $0.hasPrefix("right answer: ") }, "\(generated.stderr)")
        let code = String(line.dropFirst("right answer: ".count).prefix(6))
        #expect(code.count == 6 && code.allSatisfy(\.isNumber))
        let signedIn = try await Self.cognitoLocal([
            "sign-in", "--bootstrap", bootstrap, "--flow", "totp", "--users", users, "--answers", code, "--now", now,
        ], scratch: scratch)
        #expect(signedIn.status == 0, "\(signedIn.stdout)\n\(signedIn.stderr)")
        #expect(signedIn.stdout.contains("Signed in as jane"))
    }

    @Test("invoke and serve accept the bootstrap's step in --flow; a name it does not register is refused with its list",
          .enabled(if: TOTPExample.bootstrap != nil, TOTPExample.notBuilt))
    func flowNamesTheBootstrapsSteps() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bootstrap = try #require(TOTPExample.bootstrap)
        let invoked = try await Self.cognitoLocal([
            "invoke", "--raw", "--bootstrap", bootstrap, "--flow", "totp", Repository.path("Events/email-code/01-define-start.json"),
        ], scratch: scratch)
        #expect(invoked.status == 0, "\(invoked.stderr)")
        #expect(invoked.stdout.contains(#""challengeName":"CUSTOM_CHALLENGE""#), "\(invoked.stdout)")
        for command in [["invoke", Repository.path("Events/email-code/01-define-start.json")], ["serve", "--port", "0"], ["pool", "--port", "0"], ["sign-in"]] {
            let refused = try await Self.cognitoLocal(command + ["--bootstrap", bootstrap, "--flow", "srp+word"], scratch: scratch)
            #expect(refused.status == 7, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains(#"CHALLENGE_FLOW="srp+word" is not valid"#), "\(refused.stderr)")
            #expect(refused.stderr.contains("sms-code, totp"), "\(refused.stderr)")
        }
    }

    @Test("with the main bootstrap, a flow of a step it does not have is refused with its own list; @expected stands for the delivered code")
    func mainBootstrap() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let bootstrap = try BuiltProducts.executable("bootstrap")
        let refused = try await Self.cognitoLocal(["sign-in", "--bootstrap", bootstrap, "--flow", "srp+totp"], scratch: scratch)
        #expect(refused.status == 7)
        #expect(refused.stderr.hasSuffix("from: srp (first only), captcha, email-code, magic-link, passkey, sms-code\n"), "\(refused.stderr)")
        let signedIn = try await Self.cognitoLocal(
            ["sign-in", "--bootstrap", bootstrap, "--flow", "email-code", "--answers", "@expected"], scratch: scratch)
        #expect(signedIn.status == 0, "\(signedIn.stdout)\n\(signedIn.stderr)")
    }

    @Test("a bootstrap that cannot describe itself: the flow's unknown step is refused, saying why")
    func bootstrapThatCannotDescribe() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let silent = try scratch.write("silent", "#!/bin/sh\nexit 3\n", executable: true)
        let result = try await Self.cognitoLocal(["sign-in", "--bootstrap", silent, "--flow", "srp+totp"], scratch: scratch)
        #expect(result.status == 7)
        #expect(result.stderr.contains("cannot say which steps it registers"), "\(result.stderr)")
        #expect(result.stderr.contains("exit status 3"), "\(result.stderr)")
    }
}
