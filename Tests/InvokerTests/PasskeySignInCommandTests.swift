import Foundation
import Invoker
import Testing

/// `cognito-local sign-in --authenticator FILE`: passkey flows signed in with no browser, the software authenticator
/// registering through the function's own registration API.
@Suite("cognito-local sign-in with a software passkey authenticator, as a process")
struct PasskeySignInCommandTests {
    @Test("a passkey is registered through the registration API on first use, kept in the file (0600), and signs in", arguments: [false, true])
    func passkeyAlone(throughBootstrap: Bool) async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.path("authenticator.json")
        let transport = throughBootstrap ? ["--bootstrap", try BuiltProducts.executable("bootstrap")] : []
        let result = try await CommandLineTests.cognitoLocal(["sign-in", "--flow", "passkey", "--authenticator", file] + transport)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("registered for jane through the registration API"))
        #expect(result.stdout.contains("ANSWER=<AuthenticationResponseJSON"))
        #expect(result.stdout.contains("CUSTOM_CHALLENGE(PASSKEY) ✓"))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("localhost"))
    }

    @Test("passkey-or-email-code: the choice is answered like any challenge and goes as ClientMetadata method too")
    func choiceOfMethod() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let file = scratch.path("authenticator.json")
        let passkey = try await CommandLineTests.cognitoLocal([
            "sign-in", "--flow", "passkey-or-email-code", "--authenticator", file, "--answers", "passkey",
        ])
        #expect(passkey.status == 0, "\(passkey.stdout)\n\(passkey.stderr)")
        #expect(passkey.stdout.contains("ANSWER=passkey  ClientMetadata={method=passkey}"))
        let code = try await CommandLineTests.cognitoLocal(["sign-in", "--flow", "passkey-or-email-code", "--answers", "email-code,@outbox"])
        #expect(code.status == 0, "\(code.stdout)\n\(code.stderr)")
        #expect(code.stdout.contains("CUSTOM_CHALLENGE(METHOD_CHOICE) ✓, CUSTOM_CHALLENGE(EMAIL_CODE) ✓"))
    }

    @Test("an unknown user gets the options everyone gets, an empty authenticator cannot answer, and the sign-in fails")
    func unknownUser() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let result = try await CommandLineTests.cognitoLocal([
            "sign-in", "--flow", "passkey", "--user", "nobody", "--authenticator", scratch.path("authenticator.json"), "--answers", "a,b,c",
        ])
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("holds no passkey for this relying party"))
        #expect(!result.stdout.contains("registered for nobody"))
    }
}
