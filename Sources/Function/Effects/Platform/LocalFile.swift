#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads on POSIX calls, without Foundation.
public enum LocalFile {
    /// A file operation that failed, with the path and the system's reason.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let reason: String

        /// A failure of `operation` ("read", "append to") on `path`, for `reason`.
        public init(path: String, operation: String, reason: String) {
            self.path = path
            self.operation = operation
            self.reason = reason
        }

        public var description: String { "cannot \(operation) \(path): \(reason)" }
    }

    /// The file's bytes.
    public static func contents(of path: String) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "read") }
        defer { close(descriptor) }
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, "read")
            }
            if count == 0 { return contents }
            contents.append(contentsOf: chunk[..<count])
        }
    }

    /// The failure of `operation` on `path`, with the reason of the system call that just failed (`errno`).
    public static func failure(_ path: String, _ operation: String) -> Failure {
        Failure(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
