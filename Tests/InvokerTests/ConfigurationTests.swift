import Invoker
import Testing

@Suite("Env files and configuration layers")
struct ConfigurationTests {
    @Test("env files: comments, export, quotes, escapes, trailing comments")
    func environmentFileSyntax() throws {
        let values = try EnvironmentFile.parse("""
            # a comment
            CHALLENGE_FLOW=srp-email-code
            export MAX_ATTEMPTS = 5   # trailing comment
            QUOTED="a value # not a comment\\nsecond line"
            SINGLE='kept \\n as written'
            EMPTY=
            HASH_IN_VALUE=abc#def

            CHALLENGE_FLOW=captcha
            """)
        #expect(values == [
            "CHALLENGE_FLOW": "captcha", "MAX_ATTEMPTS": "5", "QUOTED": "a value # not a comment\nsecond line",
            "SINGLE": "kept \\n as written", "EMPTY": "", "HASH_IN_VALUE": "abc#def",
        ])
    }

    @Test("env files: a line that is not an assignment names its line number", arguments: [
        ("A=1\nnot an assignment", 2), ("1ABC=x", 1), ("A=\"unclosed", 1), ("A=\"x\" trailing", 1),
    ])
    func environmentFileErrors(text: String, line: Int) {
        #expect(throws: EnvironmentFile.SyntaxError.self) { try EnvironmentFile.parse(text) }
        #expect((try? EnvironmentFile.parse(text)) == nil)
        do {
            _ = try EnvironmentFile.parse(text)
        } catch {
            #expect(error.line == line)
        }
    }

    @Test("layers: defaults < process environment < env file < flags")
    func layering() throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = try scratch.write("local.env", "MAX_ATTEMPTS=4\nCODE_LENGTH=8\n")
        let configuration = try LocalConfiguration(
            processEnvironment: [
                "MAX_ATTEMPTS": "2", "CODE_TTL_SECONDS": "60", "CHALLENGE_FLOW": "captcha", "ALLOW_CAPTCHA_ONLY_SIGN_IN": "true",
            ],
            environmentFile: file, overrides: ["CODE_LENGTH": "9"])
        #expect(configuration.triggers.policy.maxAttempts == 4)
        #expect(configuration.triggers.policy.codeLength == 9)
        #expect(configuration.triggers.policy.validitySeconds == 60)
        #expect(configuration.flow.description == "captcha")
        #expect(configuration.environment["CODE_HASH_SECRET"] == LocalDefaults.codeHashSecret)
        // The embedded catalog is written out for the triggers, which read catalogs from files.
        #expect(configuration.captchas == LocalDefaults.captchas)
    }

    @Test("bad configuration is one error naming the variable")
    func invalidConfiguration() throws {
        #expect(throws: InvokerError.self) { try LocalConfiguration(processEnvironment: ["CHALLENGE_FLOW": "sms"]) }
        do {
            _ = try LocalConfiguration(processEnvironment: ["CODE_HASH_SECRET": "short"])
            Issue.record("a short secret was accepted")
        } catch {
            #expect(error.exitStatus == .invalidConfiguration)
            #expect(error.description.contains("CODE_HASH_SECRET"))
            #expect(!error.description.contains("short"))
        }
        do {
            _ = try LocalConfiguration(processEnvironment: [:], environmentFile: "/nonexistent/local.env")
            Issue.record("a missing env file was accepted")
        } catch {
            #expect(error.exitStatus == .invalidConfiguration)
            #expect(error.description.contains("/nonexistent/local.env"))
        }
    }

    @Test("every exit status is distinct")
    func exitStatusesAreDistinct() {
        #expect(Set(CommandExitStatus.allCases.map(\.rawValue)).count == CommandExitStatus.allCases.count)
    }
}
