#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and appends on POSIX calls, without Foundation.
public enum LocalFile {
    /// A file operation that failed, with the path and the system's reason.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let reason: String

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

    /// Appends bytes in one `write` on a file opened with `O_APPEND`, creating it (mode 0600) if needed, so that
    /// concurrent writers never interleave within a line.
    ///
    /// The file must be private: it is opened with `O_NOFOLLOW` (a symbolic link planted at the path is refused),
    /// and a file that already exists must be a regular file owned by this user with no permission for anyone
    /// else — in a shared directory such as /tmp, a file someone else created beforehand would collect what is
    /// written to it.
    public static func appendPrivately(_ bytes: [UInt8], to path: String) throws(Failure) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw Failure(path: path, operation: "open for appending", reason: "it is a symbolic link, which is refused")
            }
            throw failure(path, "open for appending")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, "inspect") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: path, operation: "append to", reason: "it is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw Failure(
                path: path, operation: "append to",
                reason: "it belongs to user id \(status.st_uid), not to this process's user id \(geteuid())")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw Failure(
                path: path, operation: "append to",
                reason: "its mode is 0\(mode), which lets other users read or write it; only 0600 is accepted")
        }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw failure(path, "append to") }
    }

    private static func failure(_ path: String, _ operation: String) -> Failure {
        Failure(path: path, operation: operation, reason: String(cString: strerror(errno)))
    }
}
