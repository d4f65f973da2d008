import CognitoChallengeTesting
import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// The passkey registration API through the real `bootstrap`: API Gateway HTTP API events (payload 2.0) answered
/// with HTTP responses by the same process that answers the triggers.
@Suite struct PasskeyAPIThroughBootstrapTests {
    static let origin = "http://localhost:5173"
    static let environment = [
        "CHALLENGE_FLOW": "email-code", "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "outbox",
        "OUTBOX_PATH": "/dev/null", "STATE_STORE": "memory", "PASSKEY_RP_ID": "localhost", "PASSKEY_RP_NAME": "Example",
        "PASSKEY_ALLOWED_ORIGINS": origin,
        // The sample event's token is live for the corpus's Cognito stand-in (Events/README.md), its sign-in recent at
        // the corpus's time, at which the bootstrap's wall clock stands (libfaketime).
        "COGNITO_IDP_ENDPOINT": CorpusEvent.cognito?.endpoint ?? "http://127.0.0.1:9",
    ].merging(FakeTime.library.map { FakeTime.environment(frozenAt: CorpusEvent.now, library: $0) } ?? [:]) { $1 }

    /// The sample list event turned into `method path` with `body`, by the caller of `claims` (none: no authorizer).
    static func event(_ method: String, _ path: String, body: String = "", claims: JSONValue? = nil) throws -> JSONObject {
        var event = try sampleEvent("passkey-api/01-list-without-passkeys.json")
        event["routeKey"] = .string("\(method) \(path)")
        event["rawPath"] = .string(path)
        event["body"] = .string(body)
        var context = event["requestContext"]?.objectValue ?? JSONObject()
        context["http"] = ["method": .string(method), "path": .string(path)]
        if let claims {
            context["authorizer"] = ["jwt": ["claims": claims]]
        } else {
            context["authorizer"] = nil
        }
        event["requestContext"] = .object(context)
        return event
    }

    static let jane: JSONValue = [
        "sub": "11111111-2222-4333-8444-555555555555", "username": "jane", "token_use": "access",
        "iss": "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE",
    ]

    /// The HTTP response the bootstrap answered: its status and its body read as JSON (nil when empty).
    static func http(_ outcome: InvocationOutcome) throws -> (status: Int?, body: JSONValue?) {
        guard case .response(let bytes) = outcome else {
            Issue.record("expected an HTTP response, got \(outcome)")
            return (nil, nil)
        }
        let response = try #require(try JSONValue(parsing: bytes).objectValue)
        #expect(response["headers"]?.objectValue?["content-type"] == "application/json")
        let body = try #require(response["body"]?.stringValue)
        let status = response["statusCode"].flatMap { if case .number(let number) = $0 { number.intValue } else { nil } }
        return (status, body.isEmpty ? nil : try JSONValue(parsing: body))
    }

    @Test(.enabled(if: FakeTime.library != nil, "needs libfaketime (Debian package faketime; `.ci/setup --test` installs it)"))
    func aPasskeyRegistersThroughTheBootstrapThatStillAnswersTheTriggers() async throws {
        let emulator = RuntimeAPIEmulator()
        let bootstrap = try BootstrapProcess("bootstrap", runtimeAPI: try await emulator.start(), environment: Self.environment)

        let options = try Self.http(try await invoke(emulator, try Self.event("POST", "/passkeys/registration/options", body: "{}", claims: Self.jane)))
        #expect(options.status == 200)
        let optionsJSON = try #require(options.body)
        #expect(optionsJSON.objectValue?["rp"] == ["id": "localhost", "name": "Example"])
        var authenticator = try SoftwareAuthenticator()
        let credential = try authenticator.register(optionsJSON: optionsJSON.text(), origin: Self.origin)

        let registered = try Self.http(try await invoke(emulator, try Self.event("POST", "/passkeys/registration", body: credential, claims: Self.jane)))
        #expect(registered.status == 201, "\(registered.body?.text() ?? "")")
        let id = try #require(registered.body?.objectValue?["id"]?.stringValue)

        let listed = try Self.http(try await invoke(emulator, try Self.event("GET", "/passkeys", claims: Self.jane)))
        #expect(listed.status == 200)
        #expect(listed.body?.objectValue?["passkeys"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [id])

        let replayed = try Self.http(try await invoke(emulator, try Self.event("POST", "/passkeys/registration", body: credential, claims: Self.jane)))
        #expect(replayed.status == 400)
        // Claims beside a token Cognito does not take (a direct invoke) are refused, whoever they name.
        var forged = try Self.event("GET", "/passkeys", claims: Self.jane)
        let liveToken = try #require(Self.event("GET", "/passkeys")["headers"]?.objectValue?["authorization"]?.stringValue)
        forged["headers"] = ["authorization": .string(String(liveToken.dropLast(2)) + "xx")]
        let anonymous = try Self.http(try await invoke(emulator, forged))
        #expect(anonymous.status == 401)
        let malformed = try Self.http(try await invoke(emulator, try Self.event("PATCH", "/passkeys/\(id)", body: "{", claims: Self.jane)))
        #expect(malformed.status == 400)

        // The same process still answers Cognito's triggers.
        guard case .response(let defined) = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json")) else {
            Issue.record("Define failed")
            return
        }
        #expect(member(try #require(try JSONValue(parsing: defined).objectValue), "response", "challengeName") == "CUSTOM_CHALLENGE")

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(log.contains("POST /passkeys/registration → 201"), "\(log)")
        #expect(log.contains("GET /passkeys → 401"))
        let apiLines = log.split(separator: "\n").filter { $0.contains("/passkeys") }
        #expect(apiLines.count >= 5)
        #expect(!apiLines.contains { $0.contains("jane") || $0.contains("11111111-2222") }, "the API's log lines name no user")
    }

    @Test(.requires(.motoServer, .boto3), .enabled(if: FakeTime.library != nil, "needs libfaketime"))
    func passkeysLiveInDynamoDBAcrossProcesses() async throws {
        let moto = try SignInLimitsThroughBootstrapTests.Moto()
        defer { moto.server.stop() }
        let environment = Self.environment.merging([
            "STATE_STORE": "dynamodb", "STATE_TABLE": SignInLimitsThroughBootstrapTests.table, "STATE_ENDPOINT": moto.endpoint,
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL", "AWS_SECRET_ACCESS_KEY": "local-secret",
        ]) { $1 }
        var authenticator = try SoftwareAuthenticator()

        let first = RuntimeAPIEmulator()
        let registering = try BootstrapProcess("bootstrap", runtimeAPI: try await first.start(), environment: environment)
        let options = try Self.http(try await invoke(first, try Self.event("POST", "/passkeys/registration/options", body: "{}", claims: Self.jane)))
        let credential = try authenticator.register(optionsJSON: try #require(options.body).text(), origin: Self.origin)
        let registered = try Self.http(try await invoke(first, try Self.event("POST", "/passkeys/registration", body: credential, claims: Self.jane)))
        #expect(registered.status == 201, "\(registered.body?.text() ?? "")")
        let id = try #require(registered.body?.objectValue?["id"]?.stringValue)
        registering.terminate()
        #expect(try await registering.exitStatus() == 0)
        await first.shutdown()

        // Another process (another Lambda instance) sees the passkey, refuses the spent challenge, and renames it.
        let second = RuntimeAPIEmulator()
        let listing = try BootstrapProcess("bootstrap", runtimeAPI: try await second.start(), environment: environment)
        let listed = try Self.http(try await invoke(second, try Self.event("GET", "/passkeys", claims: Self.jane)))
        #expect(listed.body?.objectValue?["passkeys"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == [id])
        let replayed = try Self.http(try await invoke(second, try Self.event("POST", "/passkeys/registration", body: credential, claims: Self.jane)))
        #expect(replayed.status == 400)
        let renamed = try Self.http(try await invoke(second, try Self.event("PATCH", "/passkeys/\(id)", body: #"{"name": "Laptop"}"#, claims: Self.jane)))
        #expect(renamed.status == 200)
        #expect(renamed.body?.objectValue?["name"] == "Laptop")
        listing.terminate()
        #expect(try await listing.exitStatus() == 0)
        await second.shutdown()
    }

    @Test func withoutPasskeySettingsTheBootstrapSaysSo() async throws {
        let emulator = RuntimeAPIEmulator()
        let bootstrap = try BootstrapProcess(
            "bootstrap", runtimeAPI: try await emulator.start(),
            environment: Self.environment.filter { !$0.key.hasPrefix("PASSKEY_") })
        let answer = try Self.http(try await invoke(emulator, try Self.event("GET", "/passkeys", claims: Self.jane)))
        #expect(answer.status == 404)
        #expect(answer.body?.objectValue?["message"]?.stringValue?.hasPrefix("passkeys are not configured") == true)
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
    }
}
