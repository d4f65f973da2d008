import CFileStatus
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The outbox's check before each append (`cfilestatus_read_identity`), against `stat(2)` and its own fallback.
@Suite struct FileIdentityTests {
    static func scratch(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID())").path
    }

    static func identity(_ directory: Int32, _ path: String, _ flags: Int32)
        -> (result: Int32, identity: cfilestatus_identity, error: Int32)
    {
        var identity = cfilestatus_identity()
        let result = cfilestatus_read_identity(directory, path, flags, &identity)
        return (result, identity, result == 0 ? 0 : errno)
    }

    @Test("a private file reads as stat(2) and the fallback read it, by path and by descriptor")
    func privateFile() throws {
        let path = Self.scratch("identity")
        try #require(FileManager.default.createFile(atPath: path, contents: Data("x".utf8), attributes: [.posixPermissions: 0o600]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var status = stat()
        try #require(stat(path, &status) == 0)

        let byPath = Self.identity(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW)
        #expect(byPath.result == 0)
        #expect(byPath.identity.is_regular_file)
        #expect(byPath.identity.permissions == 0o600)
        #expect(byPath.identity.owner == geteuid())
        #expect(byPath.identity.inode == UInt64(status.st_ino))

        var fallback = cfilestatus_identity()
        #expect(cfilestatus_read_identity_by_stat(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, &fallback) == 0)
        #expect(fallback.device == byPath.identity.device, "both ways give one device number, so a check compares them")
        #expect(fallback.inode == byPath.identity.inode)
        #expect(fallback.permissions == byPath.identity.permissions)

        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let byDescriptor = Self.identity(descriptor, "", AT_EMPTY_PATH)
        #expect(byDescriptor.result == 0)
        #expect(byDescriptor.identity.device == byPath.identity.device)
        #expect(byDescriptor.identity.inode == byPath.identity.inode)
        var fallbackByDescriptor = cfilestatus_identity()
        #expect(cfilestatus_read_identity_by_stat(descriptor, "", AT_EMPTY_PATH, &fallbackByDescriptor) == 0)
        #expect(fallbackByDescriptor.device == byPath.identity.device)
    }

    @Test("a link, a directory and a missing path are not taken for the file")
    func otherThings() throws {
        let target = Self.scratch("target")
        let link = Self.scratch("link")
        try #require(FileManager.default.createFile(atPath: target, contents: nil, attributes: [.posixPermissions: 0o644]))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        defer { try? FileManager.default.removeItem(atPath: link); try? FileManager.default.removeItem(atPath: target) }

        let linked = Self.identity(AT_FDCWD, link, AT_SYMLINK_NOFOLLOW)
        #expect(linked.result == 0)
        #expect(!linked.identity.is_regular_file, "the link itself, not what it points to")
        let followed = Self.identity(AT_FDCWD, link, 0)
        #expect(followed.identity.is_regular_file)
        #expect(followed.identity.permissions == 0o644)

        #expect(!Self.identity(AT_FDCWD, FileManager.default.temporaryDirectory.path, AT_SYMLINK_NOFOLLOW).identity.is_regular_file)

        let missing = Self.identity(AT_FDCWD, Self.scratch("missing"), AT_SYMLINK_NOFOLLOW)
        #expect(missing.result == -1)
        #expect(missing.error == ENOENT)
    }
}
