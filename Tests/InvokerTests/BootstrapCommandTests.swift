import Foundation
import TestSupport
import Testing

/// `cognito-local` with `--bootstrap`: the function in a real process behind the local Runtime API.
@Suite("cognito-local --bootstrap, as a process")
struct BootstrapCommandTests {
    static func cognitoLocal(_ arguments: [String]) async throws -> ProcessOutput {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        return try await run(
            try BuiltProducts.executable("cognito-local"), arguments,
            environment: ["OUTBOX_PATH": scratch.path("outbox.jsonl")])
    }

    @Test("sign-in through the real bootstrap, with a wrong code first, prints REPORT lines and issues tokens",
          arguments: ["email-code", "srp-email-code", "captcha-email-code"])
    func signInThroughTheBootstrap(flow: String) async throws {
        let answers = flow == "captcha-email-code" ? "@captcha,000000,@outbox" : "000000,@outbox"
        let result = try await Self.cognitoLocal([
            "sign-in", "--flow", flow, "--answers", answers, "--password", "Correct-Horse-9",
            "--bootstrap", try BuiltProducts.executable("bootstrap"),
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("Signed in as jane"))
        #expect(result.stdout.contains("answer wrong"))
        #expect(result.stdout.contains("REPORT RequestId: "))
        #expect(result.stdout.contains("Init Duration: "))
        #expect(result.stdout.contains("Max Memory Used: "))
    }

    @Test("CAPTCHA_STEP_UP_AFTER_FAILURES=1: after a wrong code the bootstrap asks for a CAPTCHA, then the same code signs in")
    func stepUpThroughTheBootstrap() async throws {
        let result = try await Self.cognitoLocal([
            "sign-in", "--answers", "000000,@captcha,@outbox", "-e", "CAPTCHA_STEP_UP_AFTER_FAILURES=1", "-e", "STATE_STORE=memory",
            "--bootstrap", try BuiltProducts.executable("bootstrap"),
        ])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let created = result.stdout.split(separator: "\n").filter { $0.contains("→ EMAIL_CODE") || $0.contains("→ CAPTCHA") }
        #expect(created.map { $0.contains("CAPTCHA") } == [false, true, false], "\(created)")
        #expect((result.stdout + result.stderr).contains("step-up: the user reached CAPTCHA_STEP_UP_AFTER_FAILURES=1 wrong answers"))
        #expect(result.stdout.contains("Signed in as jane"))
    }

    @Test("a bootstrap that hangs is stopped at the timeout: exit status 3", .requires(.python3))
    func hangingBootstrap() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let hanging = try scratch.write("hanging", StandIn.takesOneEventThen("sleep 30"), executable: true)
        let result = try await Self.cognitoLocal([
            "invoke", Repository.path("Events/email-code/01-define-start.json"), "--bootstrap", hanging, "--timeout", "1",
        ])
        #expect(result.status == 3)
        #expect(result.stderr.contains("Task timed out after 1.00 seconds"))
    }

    @Test("a bootstrap that crashes during an invocation: exit status 9", .requires(.python3))
    func crashingBootstrap() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let crashing = try scratch.write("crashing", StandIn.takesOneEventThen("kill -SEGV $$"), executable: true)
        let result = try await Self.cognitoLocal([
            "invoke", Repository.path("Events/email-code/01-define-start.json"), "--bootstrap", crashing,
        ])
        #expect(result.status == 9, "\(result.stderr)")
        #expect(result.stderr.contains("signal"))
    }

    @Test("a bootstrap that will not start: exit status 8 and one line saying why", arguments: [
        ("exits", "#!/bin/sh\nexit 1\n", "exit status 1"),
        ("missing", nil, "no such file"),
    ])
    func bootstrapThatWillNotStart(name: String, script: String?, reason: String) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let path = try script.map { try scratch.write(name, $0, executable: true) } ?? scratch.path(name)
        let result = try await Self.cognitoLocal([
            "invoke", Repository.path("Events/email-code/01-define-start.json"), "--bootstrap", path,
        ])
        #expect(result.status == 8)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    @Test("a bootstrap that reports an init error: exit status 8 with its error")
    func initError() async throws {
        let result = try await Self.cognitoLocal([
            "invoke", Repository.path("Events/email-code/01-define-start.json"), "-e", "ECHO_FAIL_INIT=1",
            "--bootstrap", try BuiltProducts.executable("echo-bootstrap"),
        ])
        #expect(result.status == 8)
        #expect(result.stderr.contains("init error"), "\(result.stderr)")
        #expect(result.stderr.contains("ECHO_FAIL_INIT asked the echo handler not to start"))
    }
}
