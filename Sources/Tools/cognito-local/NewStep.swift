import ArgumentParser
import Foundation
import Invoker

struct NewStep: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-step",
        abstract: "Write a package for a challenge step of your own: the step, a one-line bootstrap, tests, a README.",
        discussion: """
            The package depends on this one by path and builds and passes its tests as written; its step starts as a \
            security word kept in a user attribute (users.json gives jane one), to replace with your logic. Then: \
            swift test, and cognito-local sign-in --bootstrap .build/debug/NAME-bootstrap --flow NAME --users \
            users.json --answers @expected, as its README shows.
            """)

    @Argument(help: ArgumentHelp("The step's name in CHALLENGE_FLOW: lower-case letters, digits and hyphens.", valueName: "name"))
    var name: String

    @Option(help: ArgumentHelp("Where to write the package (default: ./NAME-step); it must not exist or be empty.", valueName: "directory"))
    var directory: String?

    @Option(help: ArgumentHelp("The cognito-challenge-runtime package to depend on (default: the one in or above the current directory, else the checkout this tool was built from).", valueName: "path"))
    var runtime: String?

    func run() async throws {
        try await reportingErrors { () throws(InvokerError) in
            let files = FileManager.default
            let runtimePath = if let runtime { Self.absolute(runtime) } else { try Self.defaultRuntime() }
            let template = try StepPackageTemplate(stepName: name, runtimePath: runtimePath)
            let target = Self.absolute(directory ?? "\(name)-step")
            if let existing = try? files.contentsOfDirectory(atPath: target), !existing.isEmpty {
                throw .usage("\(target) exists and is not empty: choose another --directory")
            }
            for file in template.files {
                let url = URL(fileURLWithPath: target).appendingPathComponent(file.path)
                do {
                    try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(file.contents.utf8).write(to: url)
                } catch {
                    throw .invalidConfiguration("cannot write \(url.path): \(error.localizedDescription)")
                }
            }
            print("""
                Wrote \(target): the \(name) step (\(template.typeStem)Step, kind \(template.kind)), its bootstrap \
                \(template.bootstrapProduct) and tests. Next:
                  cd \(target) && swift test
                """)
        }
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
    }

    /// The cognito-challenge-runtime checkout at or above the current directory, else the one this tool was built
    /// from (found by this source file's path at build time) while it is still there.
    private static func defaultRuntime() throws(InvokerError) -> String {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
        if let enclosing = enclosingRuntime(from: current) { return enclosing }
        // #filePath is Sources/Tools/cognito-local/NewStep.swift inside the checkout.
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let builtFrom = source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        if isRuntime(builtFrom) { return builtFrom.path }
        throw .usage("""
            no cognito-challenge-runtime checkout in or above the current directory, and the one this tool was built \
            from (\(builtFrom.path)) is gone: pass --runtime PATH, the folder of a checkout (the one with its Package.swift)
            """)
    }

    private static func enclosingRuntime(from start: URL) -> String? {
        var directory = start
        while true {
            if isRuntime(directory) { return directory.path }
            let parent = directory.deletingLastPathComponent()
            guard parent.path != directory.path else { return nil }
            directory = parent
        }
    }

    private static func isRuntime(_ directory: URL) -> Bool {
        let manifest = directory.appendingPathComponent("Package.swift")
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return false }
        return text.contains("name: \"cognito-challenge-runtime\"")
    }
}
