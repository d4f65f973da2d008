#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import Platform

/// A file only this user may read, appended to in one `write` per call with `O_APPEND`, so that concurrent writers
/// never interleave within a line. It is created with mode 0600 when absent.
///
/// The file must stay private: it is opened with `O_NOFOLLOW` (a symbolic link planted at the path is refused), and
/// it must be a regular file owned by this user with no permission for anyone else — in a shared directory such as
/// /tmp, a file someone else created beforehand would collect what is written to it.
///
/// The file is opened (created when absent) as the object is made, during a function's init, like a connection, so
/// that the first append does not pay for creating it; a file that cannot be opened then is reported by the first
/// append. The descriptor stays open between appends. Before each one, an `lstat` of the path checks that the path
/// still names that file and that the file is still private; a file that was removed or replaced is opened again (with
/// every check), so appends never go to a file that can no longer be found.
final class PrivateAppendFile {
    let path: String
    private var opened: (descriptor: Int32, device: UInt64, inode: UInt64)?
    private let userID = geteuid()

    init(path: String) {
        self.path = path
        _ = try? privateDescriptor()
    }

    deinit {
        if let opened { close(opened.descriptor) }
    }

    /// Appends `bytes` in one `write`.
    func append(_ bytes: [UInt8]) throws(LocalFile.Failure) {
        let descriptor = try privateDescriptor()
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw LocalFile.failure(path, "append to") }
    }

    /// The descriptor of the file the path names now, checked to be private.
    private func privateDescriptor() throws(LocalFile.Failure) -> Int32 {
        if let opened {
            var status = stat()
            if lstat(path, &status) == 0, UInt64(status.st_dev) == opened.device, UInt64(status.st_ino) == opened.inode,
               (try? checkPrivate(status)) != nil
            {
                return opened.descriptor
            }
            // Gone, replaced or no longer private: opening again checks the path from scratch and says what is wrong.
            close(opened.descriptor)
            self.opened = nil
        }
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw LocalFile.Failure(path: path, operation: "open for appending", reason: "it is a symbolic link, which is refused")
            }
            throw LocalFile.failure(path, "open for appending")
        }
        var status = stat()
        do throws(LocalFile.Failure) {
            guard fstat(descriptor, &status) == 0 else {
                throw LocalFile.failure(path, "inspect")
            }
            try checkPrivate(status)
        } catch {
            close(descriptor)
            throw error
        }
        opened = (descriptor, UInt64(status.st_dev), UInt64(status.st_ino))
        return descriptor
    }

    private func checkPrivate(_ status: stat) throws(LocalFile.Failure) {
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw LocalFile.Failure(path: path, operation: "append to", reason: "it is not a regular file")
        }
        guard status.st_uid == userID else {
            throw LocalFile.Failure(
                path: path, operation: "append to",
                reason: "it belongs to user id \(status.st_uid), not to this process's user id \(userID)")
        }
        guard status.st_mode & 0o077 == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw LocalFile.Failure(
                path: path, operation: "append to",
                reason: "its mode is 0\(mode), which lets other users read or write it; only 0600 is accepted")
        }
    }
}
