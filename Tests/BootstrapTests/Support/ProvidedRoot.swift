import Foundation

/// A directory laid out like the file system a provided.al2023 function sees, holding only what is given: the
/// unzipped package in `var/task`, an empty `tmp`, and the named files under `etc`. Run with
/// `chroot <path> /var/task/bootstrap`.
struct ProvidedRoot {
    let path: URL

    /// - Parameter files: paths relative to the root (such as `etc/hosts`) and their contents.
    init(in parent: URL, zip: String, files: [String: Data]) throws {
        path = parent
        let manager = FileManager.default
        try manager.createDirectory(at: path.appendingPathComponent("var/task"), withIntermediateDirectories: true)
        try manager.createDirectory(at: path.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        for (relative, contents) in files {
            let file = path.appendingPathComponent(relative)
            try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: file)
        }
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-q", zip, "-d", path.appendingPathComponent("var/task").path]
        try unzip.run()
        unzip.waitUntilExit()
        guard unzip.terminationStatus == 0 else { throw UnzipFailed(zip: zip) }
    }

    /// Every file and directory below the root, relative to it, sorted; `var/task` counts as one entry.
    func entries() throws -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: path.path)
        var found: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            if entry.hasPrefix("var/task/") { continue }
            found.append(entry)
        }
        return found.sorted()
    }

    struct UnzipFailed: Error, CustomStringConvertible {
        let zip: String
        var description: String { "cannot unzip \(zip)" }
    }
}
