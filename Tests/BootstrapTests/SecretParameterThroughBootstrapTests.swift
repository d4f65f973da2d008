import Foundation
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// The deployed way to give the function its secret: an SSM `SecureString` read once at start-up
/// (`CODE_HASH_SECRET_PARAMETER`), here from moto's Parameter Store on 127.0.0.1, through the real `bootstrap`.
@Suite(.serialized, .requires(.motoServer, .boto3)) struct SecretParameterThroughBootstrapTests {
    static let secret = "ssm-held-secret-0123456789abcdefghijklmnop"

    static let outbox = BootstrapProcessTests.outboxPath()

    static func aws(_ endpoint: String) -> [String: String] {
        [
            "AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL", "AWS_SECRET_ACCESS_KEY": "local-secret",
            "SSM_ENDPOINT": endpoint, "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox,
        ]
    }

    /// Milliseconds from spawning the bootstrap to its first `GET /next` (or its init error).
    static func start(_ environment: [String: String]) async throws -> (BootstrapProcess, RuntimeAPIEmulator, RuntimeStart, Double) {
        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let began = ContinuousClock.now
        let bootstrap = try BootstrapProcess("bootstrap", runtimeAPI: address, environment: environment)
        let start = try await emulator.runtimeStart()
        let instant = if case .ready(let at) = start { at } else { ContinuousClock.now }
        let elapsed = began.duration(to: instant)
        return (bootstrap, emulator, start, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }

    @Test func theSecretIsReadFromParameterStoreAtStartUp() async throws {
        let port = LocalServerProcess.freePort()
        let moto = try LocalServerProcess(arguments: ["moto_server", "-H", "127.0.0.1", "-p", String(port)], port: port)
        defer { moto.stop() }
        let endpoint = "http://127.0.0.1:\(port)"
        let put = Process()
        put.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        put.arguments = [
            "python3", "-c",
            "import boto3,sys; boto3.client('ssm', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='AKIDLOCAL', "
                + "aws_secret_access_key='local-secret').put_parameter(Name='/cognito-challenge/code-hash-secret', Value=sys.argv[2], Type='SecureString')",
            endpoint, Self.secret,
        ]
        try put.run()
        put.waitUntilExit()
        #expect(put.terminationStatus == 0)

        var fromParameter: [Double] = []
        var fromVariable: [Double] = []
        for _ in 0..<3 {
            let (bootstrap, emulator, start, milliseconds) = try await Self.start(
                Self.aws(endpoint).merging(["CODE_HASH_SECRET_PARAMETER": "/cognito-challenge/code-hash-secret"]) { $1 })
            guard case .ready = start else { Issue.record("did not start: \(bootstrap.standardError())"); return }
            fromParameter.append(milliseconds)
            // The code verifies only if the function holds the same secret as the parameter.
            guard case .response(let created) = try await invoke(emulator, try sampleEvent("email-code/02-create-code.json")) else {
                Issue.record("Create failed: \(bootstrap.standardError())"); return
            }
            let create = try #require(try JSONValue(parsing: created).objectValue)
            let code = try #require(try OutboxFile.lastCode(at: Self.outbox) ?? nil)
            #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))
            bootstrap.terminate()
            _ = try await bootstrap.exitStatus()
            await emulator.shutdown()
            #expect(!bootstrap.standardError().contains(Self.secret))

            let (plain, plainEmulator, plainStart, plainMilliseconds) = try await Self.start(
                Self.aws(endpoint).merging(["CODE_HASH_SECRET": Self.secret]) { $1 })
            guard case .ready = plainStart else { Issue.record("did not start: \(plain.standardError())"); return }
            fromVariable.append(plainMilliseconds)
            plain.terminate()
            _ = try await plain.exitStatus()
            await plainEmulator.shutdown()
        }
        print("init to first GET /next: secret from Parameter Store (moto) \(fromParameter.sorted()) ms, from the variable \(fromVariable.sorted()) ms")
    }

    @Test func aMissingParameterIsAnInitErrorNamingIt() async throws {
        let port = LocalServerProcess.freePort()
        let moto = try LocalServerProcess(arguments: ["moto_server", "-H", "127.0.0.1", "-p", String(port)], port: port)
        defer { moto.stop() }
        let (bootstrap, emulator, start, _) = try await Self.start(
            Self.aws("http://127.0.0.1:\(port)").merging(["CODE_HASH_SECRET_PARAMETER": "/nowhere/secret"]) { $1 })
        guard case .initFailed(let error) = start else { Issue.record("should not start"); return }
        #expect(error.errorType == "Runtime.InvalidConfiguration")
        let body = String(decoding: error.body, as: UTF8.self)
        #expect(body.contains("CODE_HASH_SECRET_PARAMETER"), "\(body)")
        #expect(body.contains("/nowhere/secret"))
        #expect(try await bootstrap.exitStatus() == 1)
        await emulator.shutdown()
    }
}

/// The CAPTCHA provider's secret key from an SSM `SecureString` (`CAPTCHA_SECRET_PARAMETER`), read at start-up by the
/// same machinery as the code hash secret, here from moto's Parameter Store on 127.0.0.1, through the real `bootstrap`;
/// siteverify (a stand-in that answers `invalid-input-secret` to any other secret) accepts a token only if the function
/// sends it the parameter's value.
@Suite(.serialized) struct CaptchaSecretParameterThroughBootstrapTests {
    static let captchaSecret = "0x4AAAAAAASsmHeldCaptchaSecretKey"
    static let siteKey = "0x4AAAAAAASiteKey"
    static let parameterName = "/cognito-challenge/captcha-secret"

    static func environment(moto: String, siteverify: UInt16) -> [String: String] {
        SecretParameterThroughBootstrapTests.aws(moto).merging([
            "CHALLENGE_FLOW": "captcha-email-code", "CODE_HASH_SECRET": SecretParameterThroughBootstrapTests.secret,
            "CAPTCHA_PROVIDER": "turnstile", "CAPTCHA_SITE_KEY": siteKey, "CAPTCHA_ALLOWED_HOSTNAMES": "login.example.com",
            "CAPTCHA_ACTION": "login", "CAPTCHA_ENDPOINT": "http://127.0.0.1:\(siteverify)/turnstile/siteverify",
        ]) { $1 }
    }

    static func putParameter(_ endpoint: String, name: String, value: String) throws -> Int32 {
        let put = Process()
        put.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        put.arguments = [
            "python3", "-c",
            "import boto3,sys; boto3.client('ssm', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='AKIDLOCAL', "
                + "aws_secret_access_key='local-secret').put_parameter(Name=sys.argv[2], Value=sys.argv[3], Type='SecureString')",
            endpoint, name, value,
        ]
        try put.run()
        put.waitUntilExit()
        return put.terminationStatus
    }

    @Test func theCaptchaSecretIsReadFromParameterStoreAtStartUp() async throws {
        let motoPort = LocalServerProcess.freePort()
        let moto = try LocalServerProcess(arguments: ["moto_server", "-H", "127.0.0.1", "-p", String(motoPort)], port: motoPort)
        defer { moto.stop() }
        let motoEndpoint = "http://127.0.0.1:\(motoPort)"
        #expect(try Self.putParameter(motoEndpoint, name: Self.parameterName, value: Self.captchaSecret) == 0)
        let siteverifyPort = LocalServerProcess.freePort()
        let standIn = try LocalServerProcess(
            arguments: ["python3", CaptchaProviderThroughBootstrapTests.script, String(siteverifyPort), Self.captchaSecret, Self.siteKey],
            port: siteverifyPort, startTimeout: .seconds(15))
        defer { standIn.stop() }

        let (bootstrap, emulator, start, _) = try await SecretParameterThroughBootstrapTests.start(
            Self.environment(moto: motoEndpoint, siteverify: siteverifyPort).merging(["CAPTCHA_SECRET_PARAMETER": Self.parameterName]) { $1 })
        guard case .ready = start else { Issue.record("did not start: \(bootstrap.standardError())"); return }
        guard case .response(let created) = try await invoke(emulator, try sampleEvent("captcha-email-code/02-create-captcha.json")) else {
            Issue.record("Create failed: \(bootstrap.standardError())"); return
        }
        let create = try #require(try JSONValue(parsing: created).objectValue)
        #expect(member(create, "response", "publicChallengeParameters", "provider") == "turnstile")
        #expect(try await answerCorrect(emulator, create: create, answer: "pass.\(UInt64.random(in: 0...UInt64.max))") == .bool(true))
        #expect(try await answerCorrect(emulator, create: create, answer: "wrong-host.\(UInt64.random(in: 0...UInt64.max))") == .bool(false))
        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
        let log = bootstrap.standardError()
        #expect(log.contains("CAPTCHA token accepted by turnstile"), "\(log)")
        #expect(!log.contains(Self.captchaSecret), "the CAPTCHA secret must never be logged")
        #expect(!String(decoding: created, as: UTF8.self).contains(Self.captchaSecret))
    }

    @Test func aMissingCaptchaSecretParameterIsAnInitErrorNamingIt() async throws {
        let port = LocalServerProcess.freePort()
        let moto = try LocalServerProcess(arguments: ["moto_server", "-H", "127.0.0.1", "-p", String(port)], port: port)
        defer { moto.stop() }
        let (bootstrap, emulator, start, _) = try await SecretParameterThroughBootstrapTests.start(
            Self.environment(moto: "http://127.0.0.1:\(port)", siteverify: 1).merging(["CAPTCHA_SECRET_PARAMETER": "/nowhere/captcha-secret"]) { $1 })
        guard case .initFailed(let error) = start else { Issue.record("should not start"); return }
        #expect(error.errorType == "Runtime.InvalidConfiguration")
        let body = String(decoding: error.body, as: UTF8.self)
        #expect(body.contains("CAPTCHA_SECRET_PARAMETER"), "\(body)")
        #expect(body.contains("/nowhere/captcha-secret"))
        #expect(try await bootstrap.exitStatus() == 1)
        await emulator.shutdown()
    }

    @Test func bothTheSecretAndItsParameterIsAnInitErrorThatShowsNeither() async throws {
        let (bootstrap, emulator, start, _) = try await SecretParameterThroughBootstrapTests.start(
            Self.environment(moto: "http://127.0.0.1:1", siteverify: 1).merging([
                "CAPTCHA_SECRET": Self.captchaSecret, "CAPTCHA_SECRET_PARAMETER": Self.parameterName,
            ]) { $1 })
        guard case .initFailed(let error) = start else { Issue.record("should not start"); return }
        let body = String(decoding: error.body, as: UTF8.self)
        #expect(body.contains("CAPTCHA_SECRET_PARAMETER is set too"), "\(body)")
        #expect(!body.contains(Self.captchaSecret))
        #expect(try await bootstrap.exitStatus() == 1)
        await emulator.shutdown()
        #expect(!bootstrap.standardError().contains(Self.captchaSecret))
    }
}

/// The codes in an outbox file.
enum OutboxFile {
    static func lastCode(at path: String) throws -> String? {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let line = text.split(separator: "\n").last else { return nil }
        return try JSONValue(parsing: Array(line.utf8)).objectValue?["code"]?.stringValue
    }
}
