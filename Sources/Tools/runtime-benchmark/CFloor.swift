import DevelopmentSupport
import Foundation
import Invoker

/// The C floor, compiled the way a user would build it: the system C compiler (`CC`, or `cc` on `PATH`), `-O2`,
/// libcurl, nothing else (no Swift runtime, no libstdc++).
struct CFloor {
    /// The executable.
    let path: String
    /// The command that built it, as run.
    let command: [String]
    /// The compiler: the path `cc` resolves to and the first line of its `--version`.
    let compiler: String
    let bytes: Int

    static let flags = ["-O2"]

    /// Compiles `source` into `folder` (a temporary one: the floor is rebuilt at every run, never cached).
    static func build(source: URL, into folder: URL) throws -> CFloor {
        let cc = ProcessInfo.processInfo.environment["CC"].flatMap { $0.isEmpty ? nil : $0 } ?? "cc"
        let output = folder.appendingPathComponent("runtime-floor").path
        let command = [cc] + flags + ["-o", output, source.path, "-lcurl"]
        let (status, text) = try run(command)
        guard status == 0 else {
            throw BenchmarkError.runtimeFailed("could not compile the C floor (\(command.joined(separator: " "))):\n\(text)")
        }
        let version = (try? run([cc, "--version"]).1)?.split(separator: "\n").first.map(String.init) ?? "version unknown"
        let resolved = resolve(cc).map { $0 == cc ? "" : "\($0), " } ?? ""
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: output))?[.size] as? Int) ?? 0
        return CFloor(path: output, command: command, compiler: "\(cc): \(resolved)\(version)", bytes: bytes)
    }

    /// One line for the report: how the floor was built.
    var description: String {
        let shown = command.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " ")
        return "C floor built by `\(shown)` (\(compiler)), \(String(format: "%.1f", Double(bytes) / 1024)) KiB"
    }

    /// `arguments` run through `env` (which searches `PATH`); its exit status and its output, then its errors.
    private static func run(_ arguments: [String]) throws -> (Int32, String) {
        let finished = try ProgramRun("/usr/bin/env", arguments)
        return (finished.status, String(decoding: finished.output, as: UTF8.self) + finished.errors)
    }

    /// The file `command` names on `PATH`, with symbolic links resolved.
    private static func resolve(_ command: String) -> String? {
        let candidates = command.contains("/")
            ? [command]
            : (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/\(command)" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        return URL(fileURLWithPath: found).resolvingSymlinksInPath().path
    }
}
