import Foundation
import ServiceClients
import TestSupport
import Testing

/// Reads against moto on 127.0.0.1, which checks every request's signature and the signing key's IAM policy.
@Suite("Parameter Store against moto", .serialized, .requires(.motoServer, .boto3))
final class ParameterStoreMotoTests {
    private let moto: MotoParameterStore

    init() throws {
        moto = try MotoParameterStore()
    }

    private func client(_ key: (id: String, secret: String)? = nil) throws -> ParameterStoreClient {
        let key = key ?? moto.reader
        let environment = [ParameterStoreClient.endpointVariable: moto.endpoint]
        return try ParameterStoreClient(
            region: "us-east-1", credentials: AWSCredentials(accessKeyID: key.id, secretAccessKey: key.secret),
            endpoint: ParameterStoreClient.endpoint(in: environment, region: "us-east-1"),
            // moto checks an IAM policy on every request and can be slow on a loaded machine; these tests are about
            // answers, not time (the budget has tests of its own).
            timeBudget: .seconds(10))
    }

    @Test func aSecureStringIsReadBackDecrypted() throws {
        let secret = "s3cr3t-" + UUID().uuidString + " with spaces, \"quotes\" and ünïcödé"
        try moto.put("/cognito-challenge/code-hash-secret", value: secret)
        #expect(try client().secureString(named: "/cognito-challenge/code-hash-secret") == secret)
    }

    @Test func aMissingParameterIsNotFound() throws {
        #expect {
            _ = try client().secureString(named: "/cognito-challenge/missing")
        } throws: { error in
            guard case .notFound(parameter: "/cognito-challenge/missing")? = error as? ParameterStoreError else { return false }
            return "\(error)" == "Parameter Store has no parameter \"/cognito-challenge/missing\"."
        }
    }

    @Test func aWrongSecretKeyIsRejected() throws {
        try moto.put("/cognito-challenge/signed", value: "signed-value-0123")
        let error = try failure(reading: "/cognito-challenge/signed", with: (moto.reader.id, "not-the-secret"))
        guard case .rejected(parameter: "/cognito-challenge/signed", status: 403, _)? = error else {
            Issue.record("expected a 403 rejection, got \(String(describing: error))")
            return
        }
        #expect(!"\(error!)".contains("not-the-secret"))
        #expect(!"\(error!)".contains("signed-value-0123"))
    }

    @Test func aPlainStringIsRefusedWithoutShowingIt() throws {
        try moto.put("/cognito-challenge/plain", value: "plain-value-0123", type: "String")
        let error = try failure(reading: "/cognito-challenge/plain")
        guard case .notSecureString(parameter: "/cognito-challenge/plain", type: "String")? = error else {
            Issue.record("expected notSecureString, got \(String(describing: error))")
            return
        }
        #expect(!"\(error!)".contains("plain-value-0123"))
    }

    /// The error reading `name` ends with; nil if the read succeeded.
    private func failure(reading name: String, with key: (id: String, secret: String)? = nil) throws -> ParameterStoreError? {
        let client = try client(key)
        do {
            _ = try client.secureString(named: name)
            return nil
        } catch {
            return error
        }
    }

    /// What a read adds to a cold start: a new client (a new connection) per read, as at init, and for comparison
    /// reads over one kept-alive connection. The figures are printed, not asserted: each read ending with its value
    /// shows it ended within the client's own time budget, and how fast this machine is proves nothing more.
    @Test func latencyOfTwentyReads() throws {
        try moto.put("/cognito-challenge/latency", value: "latency-value-0123456789abcdef")
        let clock = ContinuousClock()
        var fresh: [Duration] = []
        for _ in 0..<20 {
            let started = clock.now
            let value = try client().secureString(named: "/cognito-challenge/latency")
            fresh.append(clock.now - started)
            #expect(value == "latency-value-0123456789abcdef")
        }
        let shared = try client()
        var kept: [Duration] = []
        for _ in 0..<20 {
            let started = clock.now
            _ = try shared.secureString(named: "/cognito-challenge/latency")
            kept.append(clock.now - started)
        }
        print("Parameter Store read against moto on 127.0.0.1, 20 reads: median \(Self.ms(Self.median(fresh))) with a new client "
            + "each (min \(Self.ms(fresh.min()!)), max \(Self.ms(fresh.max()!))); median \(Self.ms(Self.median(kept))) over one "
            + "kept-alive connection")
    }

    private static func ms(_ duration: Duration) -> String {
        String(format: "%.2f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }

    private static func median(_ durations: [Duration]) -> Duration {
        let sorted = durations.sorted()
        return (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    }
}
