import CurlHTTP
import Foundation
import Invoker
import LosslessJSON
import TestSupport
import Testing

/// The limits across sign-ins through the real `bootstrap`, with moto on 127.0.0.1 as both DynamoDB (the state
/// table) and SES (the emails, counted from moto's own record of what was sent).
@Suite(.serialized, .requires(.motoServer, .boto3)) struct SignInLimitsThroughBootstrapTests {
    static let table = "sign-in-state"

    /// moto with a verified sender and the state table.
    final class Moto {
        let server: LocalServerProcess
        let endpoint: String

        init() throws {
            let port = LocalServerProcess.freePort()
            server = try LocalServerProcess(arguments: MotoServer.arguments(port: port), port: port)
            endpoint = "http://127.0.0.1:\(port)"
            let setup = Process()
            setup.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            setup.arguments = [
                "python3", "-c",
                """
                import boto3, sys
                kw = dict(endpoint_url=sys.argv[1], region_name='eu-west-1', aws_access_key_id='AKIDLOCAL', aws_secret_access_key='local-secret')
                boto3.client('sesv2', **kw).create_email_identity(EmailIdentity='no-reply@example.com')
                boto3.client('dynamodb', **kw).create_table(TableName=sys.argv[2], BillingMode='PAY_PER_REQUEST',
                    AttributeDefinitions=[{'AttributeName': 'pk', 'AttributeType': 'S'}], KeySchema=[{'AttributeName': 'pk', 'KeyType': 'HASH'}])
                """,
                endpoint, SignInLimitsThroughBootstrapTests.table,
            ]
            try setup.run()
            setup.waitUntilExit()
            guard setup.terminationStatus == 0 else { throw SetupFailed() }
        }

        struct SetupFailed: Error {}

        /// The emails moto's SES has accepted so far.
        func sentCount() throws -> Int {
            let data = try CurlSession().perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
            return try JSONValue(parsing: data.body).objectValue?["ses"]?.objectValue?["Message"]?.arrayValue?.count ?? 0
        }

        func lastCode() throws -> String? {
            try lastBody().flatMap(SESDeliveryThroughBootstrapTests.code(in:))
        }

        /// The token of the last sign-in link sent (`MAGIC_LINK_URL` ends in `#token={token}`).
        func lastLinkToken() throws -> String? {
            guard let body = try lastBody(), let start = body.range(of: "#token=")?.upperBound else { return nil }
            return String(body[start...].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." })
        }

        private func lastBody() throws -> String? {
            let data = try CurlSession().perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
            return try JSONValue(parsing: data.body).objectValue?["ses"]?.objectValue?["Message"]?.arrayValue?.last?
                .objectValue?["body"]?.stringValue
        }
    }

    /// A bootstrap behind its own Runtime API emulator.
    struct Function {
        let bootstrap: BootstrapProcess
        let emulator: RuntimeAPIEmulator

        init(moto: Moto, stateEndpoint: String? = nil, _ extra: [String: String] = [:]) async throws {
            emulator = RuntimeAPIEmulator()
            let address = try await emulator.start()
            bootstrap = try BootstrapProcess(
                "bootstrap", runtimeAPI: address,
                environment: [
                    "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "ses", "SES_ENDPOINT": moto.endpoint,
                    "SES_FROM_ADDRESS": "no-reply@example.com", "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDLOCAL",
                    "AWS_SECRET_ACCESS_KEY": "local-secret", "STATE_STORE": "dynamodb", "STATE_TABLE": SignInLimitsThroughBootstrapTests.table,
                    "STATE_ENDPOINT": stateEndpoint ?? moto.endpoint, "DECOY_DELAY_MS": "0",
                ].merging(extra) { $1 })
        }

        /// Create for a new sign-in of `user`.
        func create(user: String) async throws -> InvocationOutcome {
            try await invoke(emulator, try SignInLimitsThroughBootstrapTests.event("email-code/02-create-code.json", user: user))
        }

        func stop() async throws {
            bootstrap.terminate()
            _ = try await bootstrap.exitStatus()
            await emulator.shutdown()
        }
    }

    /// A sample event for another user: its own name and `sub`.
    static func event(_ path: String, user: String) throws -> JSONObject {
        var event = try sampleEvent(path)
        event["userName"] = .string(user)
        var request = event["request"]?.objectValue ?? JSONObject()
        var attributes = request["userAttributes"]?.objectValue ?? JSONObject()
        attributes["sub"] = .string("sub-of-\(user)")
        request["userAttributes"] = .object(attributes)
        event["request"] = .object(request)
        return event
    }

    static func object(_ outcome: InvocationOutcome) throws -> JSONObject? {
        guard case .response(let bytes) = outcome else { return nil }
        return try JSONValue(parsing: bytes).objectValue
    }

    @Test func sendThrottleAndRetrySafeCreate() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        // Twenty sign-ins in a row, each allowed to resend at once: the throttle lets five emails through. The
        // window slides, so Creates that straddle a window's boundary get no second allowance.
        let function = try await Function(
            moto: moto, ["RESEND_AFTER_SECONDS": "0", "MAX_SENDS_PER_WINDOW": "5", "SEND_WINDOW_SECONDS": "60"])
        var parameters: Set<[String]> = []
        for _ in 0..<20 {
            let created = try #require(try Self.object(try await function.create(user: "throttled")))
            parameters.insert((member(created, "response", "publicChallengeParameters")?.objectValue?.keys).map(Array.init) ?? [])
        }
        #expect(try moto.sentCount() == 5)
        #expect(parameters.count == 1, "throttled challenges look like the others")
        try await function.stop()

        // The default one-minute resend delay: a repeated Create returns the same challenge and sends nothing more.
        let defaults = try await Function(moto: moto)
        let before = try moto.sentCount()
        let first = try await defaults.create(user: "retried")
        let again = try await defaults.create(user: "retried")
        #expect(try moto.sentCount() == before + 1)
        // The same challenge: the same seal; only `expiresInSeconds` may have ticked down between the two calls.
        #expect(try Self.object(first).flatMap { member($0, "response", "privateChallengeParameters") }
            == Self.object(again).flatMap { member($0, "response", "privateChallengeParameters") })
        #expect(try Self.object(first).flatMap { member($0, "response", "challengeMetadata") }
            == Self.object(again).flatMap { member($0, "response", "challengeMetadata") })
        try await defaults.stop()
    }

    @Test func failureBudgetAcrossSessions() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        let function = try await Function(
            moto: moto, ["MAX_FAILURES_PER_WINDOW": "10", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0"])
        var verdicts: [Bool] = []
        for _ in 0..<50 {
            // Each session: a new sign-in's Create (the live code is reused), then a wrong answer.
            let created = try #require(try Self.object(try await function.create(user: "guesser")))
            var event = try verifyEvent(for: created, answer: "000000")
            event["userName"] = "guesser"
            guard case .response(let bytes) = try await invoke(function.emulator, event) else { Issue.record("Verify failed"); return }
            verdicts.append(try JSONValue(parsing: bytes).objectValue.flatMap { member($0, "response", "answerCorrect") } == .bool(true))
        }
        #expect(!verdicts.contains(true))
        // The eleventh and later answers were not judged at all: even the right code fails now.
        let created = try #require(try Self.object(try await function.create(user: "guesser")))
        let code = try #require(try moto.lastCode())
        var right = try verifyEvent(for: created, answer: code)
        right["userName"] = "guesser"
        guard case .response(let bytes) = try await invoke(function.emulator, right) else { Issue.record("Verify failed"); return }
        #expect(try JSONValue(parsing: bytes).objectValue.flatMap { member($0, "response", "answerCorrect") } == .bool(false))
        #expect(try moto.sentCount() == 1, "one live code for all fifty sessions")
        try await function.stop()
        #expect(function.bootstrap.standardError().contains("MAX_FAILURES_PER_WINDOW=10 wrong answers reached"))
    }

    @Test func eightConcurrentCreatesSendOneEmail() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        var functions: [Function] = []
        for _ in 0..<8 { functions.append(try await Function(moto: moto)) }
        let outcomes = try await withThrowingTaskGroup(of: InvocationOutcome.self) { group in
            for function in functions { group.addTask { try await function.create(user: "parallel") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.allSatisfy { if case .response = $0 { true } else { false } }, "\(outcomes)")
        #expect(try moto.sentCount() == 1)
        for function in functions { try await function.stop() }
    }

    /// One sign-in link, verified at once from two sessions by two bootstraps on one table, signs in once: in every
    /// one of 30 trials exactly one Verify answers true.
    @Test func singleUseLinkSignsInOnceUnderConcurrency() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        let settings = ["CHALLENGE_FLOW": "magic-link", "MAGIC_LINK_URL": "https://app.example.com/sign-in#token={token}"]
        let functions = [try await Function(moto: moto, settings), try await Function(moto: moto, settings)]
        var acceptedPerTrial: [Int] = []
        for trial in 0..<30 {
            let create = try Self.event("magic-link/02-create-link.json", user: "linked-\(trial)")
            let created = try #require(try Self.object(try await invoke(functions[0].emulator, create)))
            let token = try #require(try moto.lastLinkToken())
            let verify = try verifyEvent(for: created, answer: token)
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for function in functions {
                    group.addTask { [verify] in
                        let outcome = try Self.object(try await invoke(function.emulator, verify))
                        return outcome.flatMap { member($0, "response", "answerCorrect") } == .bool(true)
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            acceptedPerTrial.append(accepted)
        }
        #expect(acceptedPerTrial.allSatisfy { $0 == 1 }, "\(acceptedPerTrial)")
        for function in functions { try await function.stop() }
    }

    /// `verify` sent five times at once by each of `functions`: every Verify's `answerCorrect` (nil: no answer).
    static func answerAtOnce(_ verify: JSONObject, from functions: [Function]) async throws -> [Bool?] {
        try await withThrowingTaskGroup(of: [Bool?].self) { group in
            for function in functions {
                group.addTask {
                    var verdicts: [Bool?] = []
                    for _ in 0..<5 {
                        let outcome = try Self.object(try await invoke(function.emulator, verify))
                        verdicts.append(outcome.flatMap { member($0, "response", "answerCorrect") }.map { $0 == .bool(true) })
                    }
                    return verdicts
                }
            }
            return try await group.reduce([]) { $0 + $1 }
        }
    }

    /// Stops `functions` and counts how often each of `phrases` appears in their logs; none may have failed on the
    /// state store.
    static func stop(_ functions: [Function], counting phrases: [String]) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for function in functions {
            try await function.stop()
            let log = function.bootstrap.standardError()
            for phrase in phrases { counts[phrase, default: 0] += log.components(separatedBy: phrase).count - 1 }
            #expect(!log.contains("StateStoreUnavailable"), "\(log)")
        }
        return counts
    }

    /// 40 wrong answers at once from 8 bootstraps on one table, with a budget of 10: exactly 10 are judged, the
    /// rest are refused unjudged, and none fails on contention.
    @Test func concurrentWrongAnswersNeverExceedTheBudget() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        var functions: [Function] = []
        let settings = ["MAX_FAILURES_PER_WINDOW": "10", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "0"]
        for _ in 0..<8 { functions.append(try await Function(moto: moto, settings)) }
        let created = try #require(try Self.object(try await functions[0].create(user: "swarm")))
        let outcomes = try await Self.answerAtOnce(try verifyEvent(for: created, answer: "000000"), from: functions)
        #expect(outcomes.count == 40)
        #expect(outcomes.allSatisfy { $0 == false }, "every answer answered, none right: \(outcomes)")
        let unjudged = "MAX_FAILURES_PER_WINDOW=10 wrong answers reached"
        let counts = try await Self.stop(functions, counting: ["answer wrong", unjudged])
        #expect(counts["answer wrong"] == 10)
        #expect(counts["answer wrong", default: 0] + counts[unjudged, default: 0] == 40)
    }

    /// 40 wrong answers at once from 8 bootstraps on one table, with a 600 s delay from the third wrong answer on:
    /// the delay is decided in the write that records a wrong answer, so exactly 3 are judged and the rest are
    /// refused unjudged as too early.
    @Test func concurrentAnswersWaitForTheDelay() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        var functions: [Function] = []
        let settings = ["FAILURE_DELAY_BASE_SECONDS": "600", "FAILURE_DELAY_MAX_SECONDS": "600", "MAX_FAILURES_PER_WINDOW": "100"]
        for _ in 0..<8 { functions.append(try await Function(moto: moto, settings)) }
        let created = try #require(try Self.object(try await functions[0].create(user: "hasty")))
        let outcomes = try await Self.answerAtOnce(try verifyEvent(for: created, answer: "000000x"), from: functions)
        #expect(outcomes.count == 40 && outcomes.allSatisfy { $0 == false }, "\(outcomes)")
        let tooEarly = "answer not judged: too soon after a wrong answer"
        let counts = try await Self.stop(functions, counting: ["answer wrong", tooEarly])
        #expect(counts["answer wrong"] == 3)
        #expect(counts[tooEarly] == 37)
    }

    /// The failure budget spent, a newly delivered code gets FRESH_CODE_ATTEMPTS answers and no more, even when 40
    /// come at once from 8 bootstraps on one table; the next code delivered signs its user in.
    @Test func freshCodeBudgetUnderConcurrency() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        var functions: [Function] = []
        let settings = [
            "MAX_FAILURES_PER_WINDOW": "2", "FAILURE_DELAY_BASE_SECONDS": "0", "FRESH_CODE_ATTEMPTS": "3", "RESEND_AFTER_SECONDS": "0",
        ]
        for _ in 0..<8 { functions.append(try await Function(moto: moto, settings)) }
        // Two wrong answers spend the window's budget, three more the first code's own.
        let first = try #require(try Self.object(try await functions[0].create(user: "locked")))
        for _ in 0..<5 { #expect(try await answerCorrect(functions[0].emulator, create: first, answer: "000000x") == .bool(false)) }
        let second = try #require(try Self.object(try await functions[1].create(user: "locked")))
        let outcomes = try await Self.answerAtOnce(try verifyEvent(for: second, answer: "000000x"), from: functions)
        #expect(outcomes.count == 40 && outcomes.allSatisfy { $0 == false }, "\(outcomes)")
        let third = try #require(try Self.object(try await functions[2].create(user: "locked")))
        let code = try #require(try moto.lastCode())
        #expect(try await answerCorrect(functions[3].emulator, create: third, answer: code) == .bool(true))
        #expect(try moto.sentCount() == 3)
        let counts = try await Self.stop(functions, counting: ["answer wrong"])
        #expect(counts["answer wrong"] == 2 + 3 + 3)
    }

    @Test func storeDownOrSlowFailsCreateInTimeAndSendsNothing() async throws {
        let moto = try Moto()
        defer { moto.server.stop() }
        // Nothing listens on port 1; the silent server accepts connections and never answers.
        let silentPort = LocalServerProcess.freePort()
        let silent = try LocalServerProcess(
            arguments: ["python3", "-c", "import socket,time,sys; s=socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(64); conns=[s.accept() for _ in range(64)]", String(silentPort)],
            port: silentPort)
        defer { silent.stop() }
        for endpoint in ["http://127.0.0.1:1", "http://127.0.0.1:\(silentPort)"] {
            let function = try await Function(moto: moto, stateEndpoint: endpoint, ["STATE_TIMEOUT_MS": "500"])
            let started = ContinuousClock.now
            let outcome = try await function.create(user: "jane")
            let elapsed = started.duration(to: .now)
            guard case .functionError(let error) = outcome else { Issue.record("expected an error, got \(outcome)"); return }
            #expect(error.errorType == "Function.StateStoreUnavailable")
            #expect(elapsed < .seconds(4), "answered within Cognito's 5 s: \(elapsed)")
            try await function.stop()
            #expect(function.bootstrap.standardError().contains("nothing was sent"))
        }
        #expect(try moto.sentCount() == 0)
    }
}
