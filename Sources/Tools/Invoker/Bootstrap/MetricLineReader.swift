#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Platform

/// Reads a bootstrap's standard output on a thread of its own until it ends: metric lines (embedded metric format,
/// `{"_aws":…`) are kept for the invocation they belong to, anything else goes on to this process's standard error.
final class MetricLineReader: Sendable {
    private let lines = PosixLock<[String]>([])

    /// Takes over `descriptor` (closed when the writer's end closes).
    /// - Parameter keepsMetrics: false to drop the metric lines (nobody asked for them), passing the rest on.
    init(reading descriptor: Int32, keepsMetrics: Bool = true) {
        let thread = Thread { [lines] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[..<count]
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = Array(pending[..<end])
                    pending.removeSubrange(...end)
                    if line.starts(with: Array(#"{"_aws""#.utf8)) {
                        if keepsMetrics { lines.withLock { $0.append(String(decoding: line, as: UTF8.self)) } }
                    } else {
                        StandardStream.write(String(decoding: line, as: UTF8.self) + "\n", to: STDERR_FILENO)
                    }
                }
            }
            close(descriptor)
        }
        thread.name = "bootstrap stdout"
        thread.start()
    }

    /// The metric lines read since the last call, joined by newlines, waiting up to `limit` for the first; nil if
    /// none came.
    func take(waitingUpTo limit: Duration) -> String? {
        let deadline = ContinuousClock.now + limit
        while true {
            let taken = lines.withLock { lines in
                defer { lines.removeAll() }
                return lines
            }
            if !taken.isEmpty { return taken.joined(separator: "\n") }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(2000)
        }
    }
}
