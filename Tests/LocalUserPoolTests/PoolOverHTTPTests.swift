import CognitoSRP
import Foundation
import Invoker
import LocalUserPool
import LosslessJSON
import Testing

@Suite("The pool over HTTP, with the real triggers in this process", .serialized)
struct PoolOverHTTPTests {
    static let clientId = LocalDefaults.clientId

    @Test("CUSTOM_AUTH email-code: the challenge, the delivered code, tokens that verify against the JWKS")
    func emailCodeSignIn() async throws {
        try await PoolHarness.run { harness in
            let challenge = try await harness.call("InitiateAuth", [
                "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(Self.clientId), "AuthParameters": ["USERNAME": "jane"],
            ])
            #expect(challenge.status == 200)
            #expect(challenge.body["ChallengeName"] == "CUSTOM_CHALLENGE")
            #expect(challenge.body["ChallengeParameters"]?.objectValue?["USERNAME"] == "jane")
            let session = try #require(challenge.body["Session"]?.stringValue)
            let code = try #require(try harness.latestCode())
            let signedIn = try await harness.call("RespondToAuthChallenge", [
                "ClientId": .string(Self.clientId), "ChallengeName": "CUSTOM_CHALLENGE", "Session": .string(session),
                "ChallengeResponses": ["USERNAME": "jane", "ANSWER": .string(code)],
            ])
            let idToken = try #require(signedIn.body["AuthenticationResult"]?.objectValue?["IdToken"]?.stringValue)

            let jwks = try await harness.get("/\(LocalDefaults.userPoolId)/.well-known/jwks.json")
            #expect(jwks.status == 200)
            let published = try JSONValue(parsing: jwks.body).objectValue?["keys"]?.arrayValue?.first?.objectValue
            let claims = try JWT.verify(idToken, key: harness.key, now: Int64(Date().timeIntervalSince1970))
            #expect(published?["kid"]?.stringValue == harness.key.keyID)
            #expect(claims["iss"]?.stringValue == "\(harness.baseURL)/\(LocalDefaults.userPoolId)")
            #expect(claims["aud"]?.stringValue == Self.clientId)
            #expect(claims["email"]?.stringValue == LocalDefaults.email)
        }
    }

    @Test("SRP inside CUSTOM_AUTH with this package's SRP client; a stale timestamp and a foreign secret block are refused")
    func srpInsideCustomAuth() async throws {
        try await PoolHarness.run(flow: "srp-email-code") { harness in
            let poolName = try cognitoPoolName(userPoolId: LocalDefaults.userPoolId)

            func passwordVerifier() async throws -> (SRPClient, JSONObject, String) {
                let client = try SRPClient()
                let answer = try await harness.call("InitiateAuth", [
                    "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(Self.clientId),
                    "AuthParameters": ["USERNAME": "jane", "SRP_A": .string(client.publicA), "CHALLENGE_NAME": "SRP_A"],
                ])
                #expect(answer.body["ChallengeName"] == "PASSWORD_VERIFIER")
                return (client, try #require(answer.body["ChallengeParameters"]?.objectValue), try #require(answer.body["Session"]?.stringValue))
            }
            func claim(_ client: SRPClient, _ parameters: JSONObject, session: String, at seconds: Int64, block: String? = nil) async throws
                -> (status: Int, body: JSONObject, errorType: String?)
            {
                let secretBlock = try #require(parameters["SECRET_BLOCK"]?.stringValue)
                let timestamp = CognitoTimestamp.format(unixSeconds: seconds)
                let signature = try client.passwordClaim(
                    poolName: poolName, userId: try #require(parameters["USER_ID_FOR_SRP"]?.stringValue), password: LocalDefaults.password,
                    salt: try #require(parameters["SALT"]?.stringValue), serverB: try #require(parameters["SRP_B"]?.stringValue),
                    secretBlock: try #require(Base64.decode(secretBlock)), timestamp: timestamp)
                return try await harness.call("RespondToAuthChallenge", [
                    "ClientId": .string(Self.clientId), "ChallengeName": "PASSWORD_VERIFIER", "Session": .string(session),
                    "ChallengeResponses": [
                        "USERNAME": "jane", "PASSWORD_CLAIM_SECRET_BLOCK": .string(block ?? secretBlock),
                        "PASSWORD_CLAIM_SIGNATURE": .string(signature), "TIMESTAMP": .string(timestamp),
                    ],
                ])
            }
            let now = Int64(Date().timeIntervalSince1970)

            let (client, parameters, session) = try await passwordVerifier()
            let custom = try await claim(client, parameters, session: session, at: now)
            #expect(custom.body["ChallengeName"] == "CUSTOM_CHALLENGE")
            #expect(custom.body["ChallengeParameters"]?.objectValue?["challenge"] == "EMAIL_CODE")

            let (staleClient, staleParameters, staleSession) = try await passwordVerifier()
            let stale = try await claim(staleClient, staleParameters, session: staleSession, at: now - 3600)
            #expect(stale.status == 400 && stale.errorType == "NotAuthorizedException")
            #expect(stale.body["message"]?.stringValue?.contains("seconds from the server's clock") == true)

            let (foreignClient, foreignParameters, foreignSession) = try await passwordVerifier()
            let foreign = try await claim(foreignClient, foreignParameters, session: foreignSession, at: now, block: Base64.encode([1, 2, 3]))
            #expect(foreign.errorType == "NotAuthorizedException")
        }
    }

    @Test("a trigger error is UserLambdaValidationException; an unusable response is InvalidLambdaResponseException")
    func triggerFailures() async throws {
        try await PoolHarness.run(transport: ScriptedTransport(outcome: .functionError(type: "Boom", message: "It broke."))) { harness in
            let thrown = try await harness.call("InitiateAuth", [
                "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(Self.clientId), "AuthParameters": ["USERNAME": "jane"],
            ])
            #expect(thrown.errorType == "UserLambdaValidationException")
            // Cognito appends its own period to the function's message.
            #expect(thrown.body["message"] == "DefineAuthChallenge failed with error It broke..")
        }
        try await PoolHarness.run(transport: ScriptedTransport(outcome: .response(Array("{}".utf8)))) { harness in
            let unusable = try await harness.call("InitiateAuth", [
                "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(Self.clientId), "AuthParameters": ["USERNAME": "jane"],
            ])
            #expect(unusable.errorType == "InvalidLambdaResponseException")
        }
    }

    @Test("unknown targets, paths and disabled flows answer Cognito-shaped errors")
    func protocolErrors() async throws {
        try await PoolHarness.run { harness in
            let unknown = try await harness.call("ForgetDevice", [:])
            #expect(unknown.status == 400 && unknown.errorType == "UnknownOperationException")
            let srp = try await harness.call("InitiateAuth", [
                "AuthFlow": "USER_SRP_AUTH", "ClientId": .string(Self.clientId), "AuthParameters": ["USERNAME": "jane", "SRP_A": "ab"],
            ])
            #expect(srp.errorType == "InvalidParameterException")
            #expect(srp.body["message"]?.stringValue?.hasPrefix("USER_SRP_AUTH flow not enabled for this client") == true)
            let missing = try await harness.get("/nowhere")
            #expect(missing.status == 404)
        }
    }

    @Test("the sign-in page is served at / with its modules, a strict Content-Security-Policy and the pool's ids")
    func signInPage() async throws {
        try await PoolHarness.run { harness in
            let page = try await harness.get("/")
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            let policy = page.header("Content-Security-Policy") ?? ""
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.header("Referrer-Policy") == "no-referrer")
            #expect(String(decoding: page.body, as: UTF8.self).contains("<script type=\"module\" src=\"/page/app.js\">"))
            for module in ["app.js", "cognito.js", "srp.js", "captcha.js", "passkeys.js"] {
                let script = try await harness.get("/page/\(module)")
                #expect(script.status == 200 && script.header("Content-Type") == "text/javascript; charset=utf-8")
            }
            let config = try JSONValue(parsing: try await harness.get("/page/pool.json").body).objectValue
            #expect(config?["clientId"]?.stringValue == Self.clientId)
            #expect(try await harness.get("/page/secret.txt").status == 404)
            #expect(try await harness.get("/page/../Package.swift").status == 404)
        }
    }

    @Test("once the HTTP API listens, pool.json gives the page its URL and the policy lets the page call it")
    func signInPageLearnsTheHTTPAPI() async throws {
        try await PoolHarness.run { harness in
            let before = try JSONValue(parsing: try await harness.get("/page/pool.json").body).objectValue
            #expect(before?["apiUrl"] == .null)
            #expect(try await harness.get("/").header("Content-Security-Policy")?.contains("127.0.0.1:9231") == false)
            await harness.pool.setHTTPAPIURL("http://127.0.0.1:9231")
            let after = try JSONValue(parsing: try await harness.get("/page/pool.json").body).objectValue
            #expect(after?["apiUrl"]?.stringValue == "http://127.0.0.1:9231")
            let policy = try await harness.get("/").header("Content-Security-Policy") ?? ""
            #expect(policy.contains("connect-src 'self' http://127.0.0.1:9231 https://"))
        }
    }
}

/// A function that always ends the same way: for the failures the real triggers never produce.
actor ScriptedTransport: TriggerTransport {
    nonisolated let label = "scripted"
    let outcome: FunctionOutcome

    init(outcome: FunctionOutcome) {
        self.outcome = outcome
    }

    func invoke(_ event: [UInt8]) async -> Invocation {
        Invocation(requestId: "scripted", outcome: outcome, duration: .zero)
    }

    func shutdown() async {}
}

/// The real triggers in this process, with every event they are given kept for the test to read.
actor RecordingTransport: TriggerTransport {
    nonisolated let label = "recording"
    private let inner: InProcessTransport
    private(set) var events: [JSONObject] = []

    /// - Parameter outbox: where the codes go.
    init(flow: String, outbox: String, environment: [String: String] = [:]) throws {
        inner = try InProcessTransport(configuration: LocalConfiguration(
            processEnvironment: environment, overrides: ["CHALLENGE_FLOW": flow, "OUTBOX_PATH": outbox]))
    }

    func invoke(_ event: [UInt8]) async throws(InvokerError) -> Invocation {
        if let object = try? JSONValue(parsing: event).objectValue { events.append(object) }
        return await inner.invoke(event)
    }

    /// Each event's trigger source and its request's `clientMetadata` (nil when absent), oldest first; forgets them.
    func takeMetadata() -> [(trigger: String, clientMetadata: JSONValue?)] {
        defer { events = [] }
        return events.map { ($0["triggerSource"]?.stringValue ?? "?", $0["request"]?.objectValue?["clientMetadata"]) }
    }

    func shutdown() async {
        await inner.shutdown()
    }
}

@Suite("What reaches the triggers and what an unknown user is answered", .serialized)
struct PoolFidelityTests {
    static let clientId = LocalDefaults.clientId

    @Test("InitiateAuth's ClientMetadata reaches no trigger; RespondToAuthChallenge's reaches Verify and the next Create, never Define")
    func clientMetadataAsCognitoPassesIt() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("recorded-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        let recording = try RecordingTransport(flow: "email-code", outbox: outbox)
        try await PoolHarness.run(transport: recording) { harness in
            let challenge = try await harness.call("InitiateAuth", [
                "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(Self.clientId), "AuthParameters": ["USERNAME": "jane"],
                "ClientMetadata": ["from": "initiate"],
            ])
            #expect(challenge.body["ChallengeName"] == "CUSTOM_CHALLENGE", "\(challenge.body)")
            let started = await recording.takeMetadata()
            #expect(started.map(\.trigger) == ["DefineAuthChallenge_Authentication", "CreateAuthChallenge_Authentication"])
            #expect(started.allSatisfy { $0.clientMetadata == nil }, "\(started)")

            let again = try await harness.call("RespondToAuthChallenge", [
                "ClientId": .string(Self.clientId), "ChallengeName": "CUSTOM_CHALLENGE",
                "Session": .string(try #require(challenge.body["Session"]?.stringValue)),
                "ChallengeResponses": ["USERNAME": "jane", "ANSWER": "not-the-code"], "ClientMetadata": ["from": "respond"],
            ])
            #expect(again.body["ChallengeName"] == "CUSTOM_CHALLENGE")
            let answered = await recording.takeMetadata()
            #expect(answered.map(\.trigger) == [
                "VerifyAuthChallengeResponse_Authentication", "DefineAuthChallenge_Authentication", "CreateAuthChallenge_Authentication",
            ])
            #expect(answered.map(\.clientMetadata) == [["from": "respond"], nil, ["from": "respond"]], "\(answered)")
        }
    }

    @Test("an unknown user's SALT is the same on every USER_SRP_AUTH and CUSTOM_AUTH with SRP_A, and differs from name to name")
    func unknownUserSaltIsStable() async throws {
        let flows = ClientAuthFlows(["ALLOW_CUSTOM_AUTH", "ALLOW_USER_SRP_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
        let harness = try await PoolHarness(flow: "srp-email-code", flows: flows)
        let otherPool = try await PoolHarness(flow: "srp-email-code", flows: flows)
        do {
            let first = try await Self.salt(harness, "nobody", custom: false)
            #expect(try await Self.salt(harness, "nobody", custom: false) == first)
            #expect(try await Self.salt(harness, "nobody", custom: true) == first)
            #expect(first.count == 2 * SRPVerifier.saltByteCount)
            #expect(try await Self.salt(harness, "somebody-else", custom: false) != first)
            let jane = try await Self.salt(harness, "jane", custom: false)
            #expect(try await Self.salt(harness, "jane", custom: true) == jane, "a real user's salt is stable too")
            #expect(try await Self.salt(otherPool, "nobody", custom: false) != first, "each pool has a key of its own")
        } catch {
            await harness.stop()
            await otherPool.stop()
            throw error
        }
        await harness.stop()
        await otherPool.stop()
    }

    /// The SALT of the PASSWORD_VERIFIER challenge the pool answers `name` with.
    private static func salt(_ harness: PoolHarness, _ name: String, custom: Bool) async throws -> String {
        let publicA = try SRPClient().publicA
        let parameters: JSONValue = custom
            ? ["USERNAME": .string(name), "SRP_A": .string(publicA), "CHALLENGE_NAME": "SRP_A"]
            : ["USERNAME": .string(name), "SRP_A": .string(publicA)]
        let answer = try await harness.call("InitiateAuth", [
            "AuthFlow": .string(custom ? "CUSTOM_AUTH" : "USER_SRP_AUTH"), "ClientId": .string(clientId), "AuthParameters": parameters,
        ])
        #expect(answer.body["ChallengeName"] == "PASSWORD_VERIFIER", "\(answer.body)")
        return try #require(answer.body["ChallengeParameters"]?.objectValue?["SALT"]?.stringValue)
    }
}
