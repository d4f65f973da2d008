import Foundation
import Platform
import Testing

/// Something from outside the package that a test needs and `.ci/setup --test` installs: a program on PATH or a
/// Python module. A test or suite that needs one carries `.requires(...)`, so that a plain `swift test` without the
/// tools skips it, naming what is missing and how to install it, instead of failing.
///
/// Each check is cheap (a PATH lookup, or one `python3` run per module that finds the module without importing it)
/// and its answer is kept for the rest of the run.
public struct ExternalTool: Sendable, CustomStringConvertible {
    /// What a developer would call it, e.g. "moto's server".
    public let name: String
    private let check: @Sendable () -> Bool

    public init(_ name: String, available check: @escaping @Sendable () -> Bool) {
        self.name = name
        self.check = check
    }

    public var isAvailable: Bool { check() }
    public var description: String { name }

    /// The command that installs every tool the tests use.
    public static let setupCommand = ".ci/setup --test"

    /// Python 3 on PATH, which runs the tests' small stand-in servers (standard library only); Debian package python3.
    public static let python3 = ExternalTool("python3 (apt python3)") { Tool.available("python3") }
    /// moto's AWS stand-in server (`pip install 'moto[server]'`), run as `python3 -m moto.server` or `moto_server`.
    public static let motoServer = ExternalTool("moto's server (pip moto[server])") {
        Python.hasModule("moto") && Python.hasModule("flask") && Python.hasModule("flask_cors")
            && Tool.available("moto_server")
    }
    /// The AWS SDK for Python, which some tests use to set moto up.
    public static let boto3 = ExternalTool("boto3 (pip)") { Python.hasModule("boto3") }
    /// PyJWT with its `cryptography` backend (`pip install 'pyjwt[crypto]'`).
    public static let pyJWT = ExternalTool("PyJWT with cryptography (pip pyjwt[crypto])") {
        Python.hasModule("jwt") && Python.hasModule("cryptography")
    }
    /// The AWS CLI (`pip install awscli`).
    public static let awsCLI = ExternalTool("the AWS CLI `aws` (pip awscli)") { Tool.available("aws") }
    /// Info-ZIP's `unzip` (Debian package unzip).
    public static let unzip = ExternalTool("unzip (apt unzip)") { Tool.available("unzip") }
}

/// Programs on PATH.
public enum Tool {
    /// Whether `name` is an executable file in one of PATH's directories.
    public static func available(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { directory in
            FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)")
        }
    }
}

/// The `python3` on PATH and the modules it can import.
public enum Python {
    private static let known = PosixLock([String: Bool]())

    /// Whether `python3` finds the top-level module `name` (without importing it); asked once per name and run.
    public static func hasModule(_ name: String) -> Bool {
        if let answer = known.withLock({ $0[name] }) { return answer }
        let answer = Tool.available("python3") && finds(name)
        known.withLock { $0[name] = answer }
        return answer
    }

    private static func finds(_ module: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", "import importlib.util, sys; sys.exit(importlib.util.find_spec(sys.argv[1]) is None)", module,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite only when every tool in `tools` is available; otherwise it is skipped with a comment
    /// that names them and the command that installs them.
    public static func requires(_ tools: ExternalTool..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let names = tools.map(\.name).joined(separator: " and ")
        return .enabled(
            if: tools.allSatisfy(\.isAvailable),
            Comment(rawValue: "needs \(names): run \(ExternalTool.setupCommand)"),
            sourceLocation: sourceLocation)
    }
}
