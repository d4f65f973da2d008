#if canImport(Glibc)
import Glibc
#endif

/// A runtime under measurement: started with `posix_spawn` (standard output and error to /dev/null, so logging costs
/// the process what it costs on Lambda without filling the terminal), observed through /proc.
struct RuntimeProcess {
    let pid: pid_t
    let startedAt: ContinuousClock.Instant

    static func spawn(_ path: String, environment: [String: String]) throws(BenchmarkError) -> RuntimeProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [strdup(path), nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let startedAt = ContinuousClock.now
        let status = posix_spawn(&pid, path, &actions, nil, arguments, variables)
        guard status == 0 else { throw .cannotStart(path, String(cString: strerror(status))) }
        return RuntimeProcess(pid: pid, startedAt: startedAt)
    }

    /// CPU time used so far by every thread of the process (scheduler statistics, nanosecond resolution).
    func cpuTime() -> Duration {
        var total = Duration.zero
        for task in Self.entries(of: "/proc/\(pid)/task") {
            guard let text = Self.read("/proc/\(pid)/task/\(task)/schedstat"),
                let nanoseconds = text.split(separator: " ").first.flatMap({ Int64($0) })
            else { continue }
            total += .nanoseconds(nanoseconds)
        }
        return total
    }

    /// Peak resident memory so far (`VmHWM`), in KiB.
    func peakResidentKiB() -> Int {
        guard let status = Self.read("/proc/\(pid)/status"),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Waits for the process to end (it does once its Runtime API is gone), killing it after two seconds.
    func reap() {
        var status: Int32 = 0
        for _ in 0..<200 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first != "." { names.append(name) }
        }
        return names
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case cannotStart(String, String)
    case missingBinary(String)
    case runtimeFailed(String)

    var description: String {
        switch self {
        case .cannotStart(let path, let reason): "cannot start \(path): \(reason)"
        case .missingBinary(let path):
            "\(path) is not built: run `swift build -c release --static-swift-stdlib` first (the benchmark measures release builds, linked as they are deployed)"
        case .runtimeFailed(let reason): reason
        }
    }
}
