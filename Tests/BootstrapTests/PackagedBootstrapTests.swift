import DevelopmentSupport
import Foundation
import Invoker
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// The Lambda zip from `Deploy/package.sh`, unpacked into `<root>/var/task` of an otherwise empty directory and run
/// with `chroot <root> /var/task/bootstrap`: nothing of this machine's file system is visible to it, as on
/// provided.al2023. Runs when `DEPLOY_ZIP` names the zip (`.ci/test` sets it) and this process may chroot (root).
@Suite(.requires(.unzip)) struct PackagedBootstrapTests {
    static let zip = ProcessInfo.processInfo.environment["DEPLOY_ZIP"] ?? ""
    static let canRun = !zip.isEmpty && getuid() == 0

    @Test(
        "the packaged bootstrap answers Define, Create and Verify inside an empty chroot",
        .enabled(if: canRun, "needs DEPLOY_ZIP=<zip from Deploy/package.sh> and root for chroot (.ci/test does both)"))
    func answersDefineCreateVerifyInAChroot() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("chroot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let root = try Self.unpackedRoot(in: parent)

        let emulator = RuntimeAPIEmulator()
        let address = try await emulator.start()
        let bootstrap = try BootstrapProcess(
            path: "/usr/sbin/chroot", arguments: [root.path, "/var/task/bootstrap"], runtimeAPI: address,
            environment: [
                "CHALLENGE_FLOW": "captcha-email-code", "CODE_HASH_SECRET": BootstrapProcessTests.secret, "CODE_DELIVERY": "outbox",
                "OUTBOX_PATH": "/tmp/outbox.jsonl", "CAPTCHA_CATALOG": "/var/task/captcha-catalog.json",
                "ALLOW_CAPTCHA_CATALOG": "true",
                "LAMBDA_TASK_ROOT": "/var/task",
            ])
        guard case .ready = try await emulator.runtimeStart() else {
            Issue.record("the packaged bootstrap did not start: \(bootstrap.standardError())"); return
        }

        guard case .response(let defined) = try await invoke(emulator, try sampleEvent("email-code/01-define-start.json"))
        else { Issue.record("Define failed"); return }
        #expect(member(try #require(try JSONValue(parsing: defined).objectValue), "response", "challengeName") == "CUSTOM_CHALLENGE")

        // The email-code step of captcha-email-code comes after a solved CAPTCHA: the sample event has that session.
        guard case .response(let created) = try await invoke(emulator, try sampleEvent("captcha-email-code/04-create-code-after-captcha.json"))
        else { Issue.record("Create failed: \(bootstrap.standardError())"); return }
        let create = try #require(try JSONValue(parsing: created).objectValue)
        let sent = try OutboxDelivery.messages(at: root.appendingPathComponent("tmp/outbox.jsonl").path)
        let code = try #require(sent.first?.code, "no code in the chroot's /tmp/outbox.jsonl")

        #expect(try await answerCorrect(emulator, create: create, answer: code) == .bool(true))
        #expect(try await answerCorrect(emulator, create: create, answer: wrongCode(for: code)) == .bool(false))

        bootstrap.terminate()
        #expect(try await bootstrap.exitStatus() == 0)
        await emulator.shutdown()
    }

    @Test(
        "the packaged bootstrap describes its steps, run through the loader and libraries the zip ships",
        .enabled(if: canRun, "needs DEPLOY_ZIP=<zip from Deploy/package.sh> and root for chroot (.ci/test does both)"))
    func describesItsStepsThroughItsOwnLoader() throws {
        // As Deploy/package.sh writes steps.json. (In an empty chroot without /proc the static standard library finds
        // no arguments, since it reads them through /proc/self/maps; Lambda always mounts /proc.)
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("unpacked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let task = try Self.unpackedRoot(in: parent).appendingPathComponent("var/task")
        let described = try ProgramRun(
            task.appendingPathComponent("lib/ld-linux-x86-64.so.2").path,
            ["--library-path", task.appendingPathComponent("lib").path, task.appendingPathComponent("bootstrap").path, "--describe"],
            environment: ["LAMBDA_TASK_ROOT": task.path])
        #expect(described.status == 0)
        let steps = try #require(try JSONValue(parsing: described.output).objectValue?["steps"]?.arrayValue)
        let names = steps.compactMap { $0.objectValue?["name"]?.stringValue }
        #expect(names.contains("email-code"))
    }

    /// The zip unpacked into `<parent>/root/var/task`, beside an empty `/tmp` and nothing else (no `/proc`).
    static func unpackedRoot(in parent: URL) throws -> URL {
        let root = parent.appendingPathComponent("root")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("var/task"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        let unzipped = try ProgramRun("/usr/bin/unzip", ["-q", zip, "-d", root.appendingPathComponent("var/task").path])
        try #require(unzipped.status == 0, "cannot unzip \(zip)")
        let visible = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(visible == ["tmp", "var"], "the chroot holds nothing but the zip and an empty /tmp")
        return root
    }
}
