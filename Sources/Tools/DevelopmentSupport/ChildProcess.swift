#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Platform

/// How a child process ended, in the words Lambda uses: `exit status 1`, `signal: killed`.
public struct ProcessTermination: Sendable, Equatable, CustomStringConvertible {
    public let exitCode: Int32?
    public let signal: Int32?
    /// Peak resident memory over the process's life, in KiB (from `wait4`'s rusage).
    public let peakResidentKiB: Int

    public var description: String {
        if let signal { return "signal: \(String(cString: strsignal(signal)).lowercased())" }
        return "exit status \(exitCode ?? -1)"
    }
}

/// A process started with `posix_spawn` in its own process group, reaped by a dedicated thread with `wait4`.
///
/// Its standard input is /dev/null. By default its standard output goes to this process's standard error and its
/// standard error stays shared: its logs appear as they would in Lambda, out of the way of the response on standard
/// output. It inherits no other descriptor (no listening socket of this process), so a bootstrap whose parent is
/// killed finds its Runtime API gone and exits.
public final class ChildProcess: Sendable {
    /// Where the process's standard output and error go.
    public enum Output: Sendable {
        /// Both to this process's standard error.
        case standardError
        /// Both to /dev/null (a benchmark that must not fill the terminal).
        case discarded
        /// Standard output to this file (created or emptied, readable only by its owner), standard error shared:
        /// for a process whose output is an answer to read, such as a bootstrap describing its steps.
        case file(String)
        /// Standard output to this descriptor (a pipe's write end, e.g. for metric lines), standard error shared.
        case standardOutputTo(Int32)
    }

    public let pid: pid_t
    public let startedAt: ContinuousClock.Instant
    private let state = PosixLock(State())

    private struct State {
        var termination: ProcessTermination?
        var waiters: [UInt64: CheckedContinuation<ProcessTermination?, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// Starts `path` with `environment`. Throws a reason a person can act on when it cannot be started.
    public static func spawn(
        _ path: String, arguments: [String] = [], environment: [String: String], output: Output = .standardError
    ) throws(ChildProcessError) -> ChildProcess {
        guard access(path, F_OK) == 0 else { throw ChildProcessError(path: path, reason: "no such file") }
        guard access(path, X_OK) == 0 else { throw ChildProcessError(path: path, reason: "not executable (chmod +x?)") }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        switch output {
        case .standardError:
            posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        case .discarded:
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        case .file(let file):
            posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        case .standardOutputTo(let descriptor):
            posix_spawn_file_actions_adddup2(&actions, descriptor, STDOUT_FILENO)
        }
        #if os(Linux)
        // Nothing but the three standard descriptors reaches the child: not this process's listening sockets (the
        // serve port, the Runtime API emulator's), which SwiftNIO does not open close-on-exec. A child holding the
        // emulator's listener outlives this process: its `next` call, cut off when this process dies, connects
        // again to the listener it holds itself and waits there for ever. Without it, the call fails and the
        // runtime exits.
        let closing = closeInheritedDescriptors(&actions)
        guard closing == 0 else { throw ChildProcessError(path: path, reason: String(cString: strerror(closing))) }
        #endif

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setpgroup(&attributes, 0)
        #if canImport(Darwin)
        // Darwin's way to the same end: every descriptor not named by a file action is closed.
        posix_spawn_file_actions_addinherit_np(&actions, STDERR_FILENO)
        let closeOthers = POSIX_SPAWN_CLOEXEC_DEFAULT
        #else
        let closeOthers: Int32 = 0
        #endif
        posix_spawnattr_setflags(
            &attributes, Int16(Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK) | Int32(closeOthers)))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let startedAt = ContinuousClock.now
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw ChildProcessError(path: path, reason: String(cString: strerror(status))) }
        let child = ChildProcess(pid: pid, startedAt: startedAt)
        child.reapWhenDone()
        return child
    }

    private init(pid: pid_t, startedAt: ContinuousClock.Instant) {
        self.pid = pid
        self.startedAt = startedAt
    }

    /// The termination, once the process has ended.
    public var termination: ProcessTermination? { state.withLock { $0.termination } }

    /// Waits for the process to end; nil when the waiting task is cancelled first.
    public func terminated() async -> ProcessTermination? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let done = state.withLock { state -> ProcessTermination?? in
                    if let termination = state.termination { return .some(termination) }
                    if Task.isCancelled { return .some(nil) }
                    state.waiters[id] = continuation
                    return .none
                }
                if let done { continuation.resume(returning: done) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: nil)
        }
    }

    /// Kills the process and everything it started (its process group) at once, as Lambda ends a sandbox.
    public func kill() {
        guard termination == nil else { return }
        killProcessGroup(pid)
    }

    /// The process's peak resident memory so far in KiB, as the kernel counts it (`VmHWM` while it runs, rusage
    /// once it has ended); nil where neither is available.
    public var peakResidentKiB: Int? {
        if let termination { return termination.peakResidentKiB }
        return statusKiB("VmHWM:") ?? termination?.peakResidentKiB
    }

    /// The process's resident memory now in KiB (`VmRSS`); nil once it has ended.
    public var residentKiB: Int? { termination == nil ? statusKiB("VmRSS:") : nil }

    /// How many file descriptors the process has open now (the entries of /proc/PID/fd); nil once it has ended.
    public var openFileDescriptorCount: Int? {
        guard termination == nil else { return nil }
        return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count
    }

    /// A figure in KiB from /proc/PID/status (`field` is `VmRSS:`, `VmHWM:`, …); nil where it cannot be read.
    private func statusKiB(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }

    /// ``peakResidentKiB`` in whole MiB, at least 1, as Lambda's REPORT line gives it.
    public var peakMemoryMiB: Int? { peakResidentKiB.map { max(1, ($0 + 512) / 1024) } }

    private func reapWhenDone() {
        let thread = Thread { [self] in
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
            let signalled = status & 0x7f != 0 && status & 0x7f != 0x7f
            let termination = ProcessTermination(
                exitCode: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil,
                peakResidentKiB: Int(usage.ru_maxrss))
            let waiters = state.withLock { state in
                state.termination = termination
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            waiters.forEach { $0.resume(returning: termination) }
        }
        thread.name = "reap \(pid)"
        thread.start()
    }
}

/// A process that could not be started.
public struct ChildProcessError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): \(reason)" }
}

#if os(Linux)
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up when first used: its declaration
/// needs `_GNU_SOURCE`, which the Glibc module is not imported with.
private enum SpawnCloseFrom {
    typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    static let function: Function? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: Function.self) }
}

/// Adds to `actions` the closing of every descriptor above standard error; 0, or the error number. Without
/// `addclosefrom_np` (glibc before 2.34), closes each descriptor open now, as /proc/self/fd lists them.
private func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) -> Int32 {
    if let addCloseFrom = SpawnCloseFrom.function {
        return addCloseFrom(&actions, STDERR_FILENO + 1)
    }
    let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
    for descriptor in open where descriptor > STDERR_FILENO {
        let status = posix_spawn_file_actions_addclose(&actions, descriptor)
        guard status == 0 else { return status }
    }
    return 0
}
#endif

/// SIGKILL to every process in the group `pid` leads.
private func killProcessGroup(_ pid: pid_t) {
    _ = kill(-pid, SIGKILL)
}
