import ServiceClients
import TestSupport
import Testing

@Suite("Parameter Store when nothing answers")
struct ParameterStoreUnreachableTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "unreachable-secret")

    @Test func nothingListeningIsUnreachableWithinTheBudget() throws {
        let port = LocalServerProcess.freePort()
        let client = try ParameterStoreClient(
            region: "us-east-1", credentials: Self.credentials, endpoint: AWSEndpoint(url: "http://127.0.0.1:\(port)"))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            _ = try client.secureString(named: "/app/secret")
            Issue.record("a read from a closed port succeeded")
        } catch {
            guard case .unreachable(parameter: "/app/secret", endpoint: "http://127.0.0.1:\(port)", _) = error else {
                Issue.record("expected unreachable, got \(error)")
                return
            }
            #expect("\(error)".hasPrefix("Could not reach Parameter Store at \"http://127.0.0.1:\(port)\" to read parameter \"/app/secret\""))
            #expect(!"\(error)".contains("unreachable-secret"))
        }
        let elapsed = clock.now - started
        print("Parameter Store read with nothing listening failed as unreachable after \(elapsed)")
        #expect(elapsed < .milliseconds(1500))
    }

    /// A server that accepts the connection but never answers: the read ends when the budget does.
    @Test(.requires(.python3)) func aSilentServerTimesOutAtTheBudget() throws {
        let port = LocalServerProcess.freePort()
        let silent = try LocalServerProcess(
            arguments: ["python3", "-c", "import socket, sys, time\ns = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                + "s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(8)\nwhile True: time.sleep(60)", String(port)],
            port: port)
        defer { silent.stop() }
        let client = try ParameterStoreClient(
            region: "us-east-1", credentials: Self.credentials, endpoint: AWSEndpoint(url: "http://127.0.0.1:\(port)"),
            timeBudget: .milliseconds(400))
        let clock = ContinuousClock()
        let started = clock.now
        #expect {
            _ = try client.secureString(named: "/app/secret")
        } throws: { error in
            guard case .timedOut(parameter: "/app/secret", budget: .milliseconds(400))? = error as? ParameterStoreError else { return false }
            return "\(error)" == "Parameter Store did not answer for parameter \"/app/secret\" within the 400 ms budget."
        }
        let elapsed = clock.now - started
        #expect(elapsed >= .milliseconds(400) && elapsed < .milliseconds(1000))
    }
}
