import DevelopmentSupport
import Foundation
import Invoker

extension ChildProcess {
    /// CPU time used so far by every thread of the process (scheduler statistics, nanosecond resolution).
    func cpuTime() -> Duration {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(.zero) { total, task in
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let nanoseconds = text.split(separator: " ").first.flatMap({ Int64($0) })
            else { return total }
            return total + .nanoseconds(nanoseconds)
        }
    }
}

enum BenchmarkError: Error, CustomStringConvertible {
    case missingBinary(String)
    /// The packaged bootstrap is not staged.
    case notPackaged(String)
    /// `--against` names no executable file.
    case notExecutable(String)
    case runtimeFailed(String)

    var description: String {
        switch self {
        case .missingBinary(let path):
            "\(path) is not built: run `swift build -c release --static-swift-stdlib --product NAME` for echo-bootstrap and runtime-benchmark first"
        case .notPackaged(let path):
            "\(path) is not there: run Deploy/package.sh first (the benchmark measures the bootstrap the zip ships)"
        case .notExecutable(let path): "\(path) is not an executable file: --against takes the path of another bootstrap build (a staged Deploy/work/package/bootstrap runs through the loader beside it)"
        case .runtimeFailed(let reason): reason
        }
    }
}
