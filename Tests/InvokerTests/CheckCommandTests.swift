import DevelopmentSupport
import Foundation
import Invoker
import Testing

/// `cognito-local check`: a folder of events replayed against their expectations, and `--now`.
@Suite("cognito-local check, as a process")
struct CheckCommandTests {
    static let corpusTime = "1763800000"
    static let eventCount = (try? CorpusEvent.load(directory: URL(fileURLWithPath: Repository.path("Events"))).count) ?? 0

    @Test("Events/ passes event by event at its own clock (its clock.txt), in this process and through the bootstrap")
    func repositoryCorpusPasses() async throws {
        #expect(Self.eventCount > 90)
        #expect(try String(contentsOfFile: Repository.path("Events/clock.txt"), encoding: .utf8) == Self.corpusTime + "\n")
        let inProcess = try await CommandLineTests.cognitoLocal(["check", Repository.path("Events")])
        #expect(inProcess.status == 0, "\(inProcess.stdout)\(inProcess.stderr)")
        #expect(inProcess.stdout.hasSuffix("check: \(Self.eventCount) passed, 0 failed\n"))
        #expect(inProcess.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("PASS ") }.count == Self.eventCount)
        guard FakeTime.library != nil else { return }
        let throughBootstrap = try await CommandLineTests.cognitoLocal([
            "check", Repository.path("Events"), "--bootstrap", try BuiltProducts.executable("bootstrap"),
        ])
        #expect(throughBootstrap.status == 0, "\(throughBootstrap.stdout)\(throughBootstrap.stderr)")
        #expect(throughBootstrap.stdout.hasSuffix("check: \(Self.eventCount) passed, 0 failed\n"))
    }

    @Test("an event that does not do what its expectation says fails with the difference, and the command exits 11")
    func mismatchIsReported() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        let define = try String(contentsOfFile: Repository.path("Events/email-code/01-define-start.json"), encoding: .utf8)
        _ = try scratch.write("define.json", define)
        _ = try scratch.write("define.expected.json", #"{"flow": "email-code", "response": {"challengeName": "PASSWORD_VERIFIER"}}"#)
        _ = try scratch.write("right.json", define)
        _ = try scratch.write("right.expected.json", #"{"response": {"challengeName": "CUSTOM_CHALLENGE", "issueTokens": false}}"#)
        let result = try await CommandLineTests.cognitoLocal(["check", scratch.url.path])
        #expect(result.status == CommandExitStatus.checkFailed.rawValue, "\(result.stderr)")
        #expect(result.stdout.contains("FAIL define.json\n     $.challengeName: expected \"PASSWORD_VERIFIER\", found \"CUSTOM_CHALLENGE\""), "\(result.stdout)")
        #expect(result.stdout.contains("PASS right.json"))
        #expect(result.stdout.hasSuffix("check: 1 passed, 1 failed\n"))
        #expect(result.stderr.contains("cognito-local: error: 1 of 2 events did not produce what their expectations say"))

        _ = try scratch.write("clock.txt", "yesterday\n")
        let unreadableClock = try await CommandLineTests.cognitoLocal(["check", scratch.url.path])
        #expect(unreadableClock.status != 0)
        #expect(unreadableClock.stderr.contains("clock.txt must hold the Unix seconds the events were written for"), "\(unreadableClock.stderr)")
    }

    @Test("an event without its expectation is refused, naming the file")
    func missingExpectation() async throws {
        let scratch = try ScratchDirectory()
        defer { scratch.remove() }
        _ = try scratch.write("lonely.json", "{}")
        let result = try await CommandLineTests.cognitoLocal(["check", scratch.url.path])
        #expect(result.status == CommandExitStatus.usage.rawValue)
        #expect(result.stderr.contains("lonely.json has no lonely.expected.json beside it"), "\(result.stderr)")
    }

    @Test("invoke --now gives the function the events' clock: a code verifies before its expiry, not after")
    func invokeAtAGivenTime() async throws {
        let event = Repository.path("Events/email-code/03-verify-right-code.json")
        let atCorpusTime = try await CommandLineTests.cognitoLocal(["invoke", "--raw", "-e", "STATE_STORE=none", "--now", Self.corpusTime, event])
        #expect(atCorpusTime.stdout.contains(#""answerCorrect":true"#), "\(atCorpusTime.stdout)\(atCorpusTime.stderr)")
        let today = try await CommandLineTests.cognitoLocal(["invoke", "--raw", "-e", "STATE_STORE=none", event])
        #expect(today.stdout.contains(#""answerCorrect":false"#), "\(today.stdout)")
    }
}
