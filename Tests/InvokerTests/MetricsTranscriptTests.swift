import Invoker
import LosslessJSON
import Testing

/// `--metrics`: each invocation carries the metric line the function writes, and the transcript shows its digest.
@Suite("metrics in the transcript")
struct MetricsTranscriptTests {
    @Test("in-process invocations carry their metric line when asked for, the first one a cold start")
    func inProcess() async throws {
        let (generator, configuration) = try EventGeneratorTests.generator(flow: "email-code")
        let define = try await generator.generate(.define, session: generator.tokens(for: .custom(1), wrongAnswers: 0))
        let transport = try InProcessTransport(configuration: configuration, metrics: true)
        let first = try #require(await transport.invoke(define.event.serialized()).metrics)
        let second = try #require(await transport.invoke(define.event.serialized()).metrics)
        #expect(!first.contains("\n"))
        let root = try #require(try JSONValue(parsing: Array(first.utf8)).objectValue)
        #expect(root["_aws"]?.objectValue?["CloudWatchMetrics"]?.arrayValue?.isEmpty == false)
        #expect(root["ColdStart"] == 1 && root["Trigger"] == "Define")
        #expect(try JSONValue(parsing: Array(second.utf8)).objectValue?["ColdStart"] == 0)
        #expect(MetricsDigest.describe(first).hasPrefix("Define challenge · ColdStart 1 · InitMilliseconds "))
        #expect(MetricsDigest.describe(second) == "Define challenge")

        let quiet = try InProcessTransport(configuration: configuration)
        #expect(await quiet.invoke(define.event.serialized()).metrics == nil)
    }
}
