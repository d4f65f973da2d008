import Foundation
import Invoker
import LosslessJSON
import ServiceClients

/// How to start a runtime: its executable, or, for the bootstrap `Deploy/package.sh` staged (its ELF interpreter and
/// DT_RPATH name /var/task/lib, which exists only in Lambda), the loader staged beside it, which runs it with the
/// libraries staged with it. Either way the process is the runtime itself: one pid, its own CPU time and memory.
struct RuntimeExecutable: Sendable {
    let path: String
    let arguments: [String]

    /// `path`, run through the loader in `lib/` beside it when that is there.
    init(_ path: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw BenchmarkError.notExecutable(path) }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let libraries = folder.appendingPathComponent("lib")
        let loader = libraries.appendingPathComponent("ld-linux-x86-64.so.2").path
        if FileManager.default.isExecutableFile(atPath: loader) {
            self.path = loader
            arguments = ["--library-path", libraries.path, path]
        } else {
            self.path = path
            arguments = []
        }
    }
}

/// A runtime to measure and the events it answers.
struct Workload {
    var name: String
    let executable: RuntimeExecutable
    let environment: [String: String]
    /// The first event; its answer may shape the rest.
    let firstEvent: [UInt8]
    /// The warm events, sent in rotation, given the first event's response.
    var warmEvents: ([UInt8]) throws -> [[UInt8]]
    /// What each warm event is (`Create`), in the same order.
    var warmEventNames: [String] = []
    /// The relay in front of the runtime's state store, which counts its connections and requests; nil without one.
    var store: CountingProxy? = nil

    /// The same runtime sent only one of its warm events, `eventName` (`Create`), as its warm invocations: what
    /// each trigger costs alone. Nil for a name that is not one of `warmEventNames`.
    func alone(_ eventName: String) -> Workload? {
        guard let position = warmEventNames.firstIndex(of: eventName) else { return nil }
        var workload = self
        workload.name = "\(name) \(eventName)"
        workload.warmEvents = { [warmEvents] first in [try warmEvents(first)[position]] }
        workload.warmEventNames = [eventName]
        return workload
    }

    /// The C floor and the echo loop answer a ~1 KB Verify event with its own bytes.
    static func echo(name: String, executable: RuntimeExecutable, event: [UInt8]) -> Workload {
        Workload(name: name, executable: executable, environment: [:], firstEvent: event, warmEvents: { _ in [event] })
    }

    /// The real bootstrap answers Define, Create (delivering to an outbox file) and Verify (with the code the first
    /// Create sent) in rotation; `environment` adds settings (a state store) under another `name`.
    static func triggers(
        name: String = "bootstrap", executable: RuntimeExecutable, events: URL, outbox: String, environment extra: [String: String] = [:],
        store: CountingProxy? = nil
    ) throws -> Workload {
        func load(_ name: String) throws -> JSONObject {
            try JSONValue(parsing: Array(try Data(contentsOf: events.appendingPathComponent(name)))).objectValue ?? JSONObject()
        }
        let define = try load("email-code/01-define-start.json")
        let create = try load("email-code/02-create-code.json")
        let verifyTemplate = try load("email-code/03-verify-right-code.json")
        return Workload(
            name: name, executable: executable,
            environment: [
                "CODE_HASH_SECRET": "runtime-benchmark-secret-0123456789abcdef", "CODE_DELIVERY": "outbox", "OUTBOX_PATH": outbox,
                "CHALLENGE_FLOW": "email-code",
            ].merging(extra) { $1 },
            firstEvent: JSONValue.object(create).serialized(),
            warmEvents: { created in
                let response = try JSONValue(parsing: created).objectValue?["response"]?.objectValue
                guard let code = try OutboxDelivery.messages(at: outbox).last?.code,
                    let privateParameters = response?["privateChallengeParameters"]
                else { throw BenchmarkError.runtimeFailed("the first Create delivered no code") }
                var verify = verifyTemplate
                var request = verify["request"]?.objectValue ?? JSONObject()
                request["privateChallengeParameters"] = privateParameters
                request["challengeAnswer"] = .string(code)
                verify["request"] = .object(request)
                return [define, create, verify].map { JSONValue.object($0).serialized() }
            },
            warmEventNames: ["Define", "Create", "Verify"], store: store)
    }
}
