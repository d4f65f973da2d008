// swift-tools-version:6.0
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

// The modules, and what each one is for, are listed in docs/architecture.md (the one list; a test checks it
// against this file). Each module's folder sits under Sources/ in the folder of its layer (`sourceLayers`, at the end).
let package = Package(
    name: "cognito-challenge-runtime",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "bootstrap", targets: ["bootstrap"]),
        .executable(name: "cognito-local", targets: ["cognito-local"]),
        .executable(name: "runtime-benchmark", targets: ["runtime-benchmark"]),
        .library(name: "CognitoTriggers", targets: ["CognitoTriggers"]),
        // For the fuzz package in Tests/Fuzz, which depends on this one by path and sees only products.
        .library(name: "LosslessJSON", targets: ["LosslessJSON"]),
        .library(name: "ServiceClients", targets: ["ServiceClients"]),
        .library(name: "CurlHTTP", targets: ["CurlHTTP"]),
        .library(name: "LambdaRuntime", targets: ["LambdaRuntime"]),
        .library(name: "CognitoChallengeTesting", targets: ["CognitoChallengeTesting"]),
        .library(name: "ChallengeFlows", targets: ["ChallengeFlows"]),
        .library(name: "ChallengeCrypto", targets: ["ChallengeCrypto"]),
        // For Examples/SignInClient, a Swift client that answers PASSWORD_VERIFIER with the client side of the SRP.
        .library(name: "CognitoSRP", targets: ["CognitoSRP"]),
    ],
    dependencies: [
        // Invoker only: command-line parsing and the local Runtime API server.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(name: "CFileStatus"),
        .target(name: "LosslessJSON"),
        .target(name: "Basics", dependencies: ["LosslessJSON"]),
        .target(name: "ChallengeCrypto", dependencies: ["COpenSSL", "Basics"]),
        .target(name: "ChallengeFlows", dependencies: ["COpenSSL", "LosslessJSON", "ChallengeCrypto", "Basics"]),
        .target(name: "CognitoSRP", dependencies: ["COpenSSL", "ChallengeCrypto"]),
        .target(name: "CurlHTTP", dependencies: ["CCurl", "Basics"]),
        .target(name: "ProcessArguments"),
        .target(name: "LambdaRuntime", dependencies: ["CurlHTTP", "LosslessJSON", "Basics", "ProcessArguments"]),
        .target(name: "ServiceClients", dependencies: ["Basics", "CFileStatus", "ChallengeFlows", "ChallengeCrypto", "CurlHTTP", "LosslessJSON"]),
        .target(
            name: "CognitoTriggers",
            dependencies: [
                "Basics", "ChallengeFlows", "ChallengeCrypto", "ServiceClients", "LosslessJSON", "LambdaRuntime",
            ]
        ),
        .target(
            name: "CognitoChallengeTesting",
            dependencies: ["ChallengeFlows", "CognitoTriggers", "ChallengeCrypto", "LosslessJSON", "COpenSSL"]
        ),
        .executableTarget(
            name: "bootstrap",
            dependencies: ["CognitoTriggers"],
            exclude: ["call-graph.txt", "static-libstdc++"],
            linkerSettings: [.unsafeFlags(leanRuntimeLink + bootstrapLinkOrder, .when(platforms: [.linux], configuration: .release))]
        ),
        .target(
            name: "Invoker",
            dependencies: [
                "CognitoTriggers", "ChallengeFlows", "ServiceClients", "LosslessJSON", "Basics",
                "CognitoChallengeTesting", "ChallengeCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LocalUserPool",
            dependencies: [
                "Invoker", "CognitoSRP", "COpenSSL", "ChallengeFlows", "ChallengeCrypto", "LosslessJSON", "CognitoTriggers",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        .executableTarget(
            name: "cognito-local",
            dependencies: [
                "Invoker", "LocalUserPool", "Basics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "runtime-benchmark",
            dependencies: ["Invoker", "ServiceClients", "LosslessJSON", "Basics"],
            // The C floor: the benchmark compiles it with the system C compiler, as a user would, not SwiftPM.
            exclude: ["runtime-floor.c"]
        ),
        .executableTarget(
            name: "echo-bootstrap",
            dependencies: ["LambdaRuntime"],
            // The bootstrap's call graph places the runtime loop's functions, which are most of the echo loop's.
            linkerSettings: [.unsafeFlags(leanRuntimeLink + bootstrapLinkOrder, .when(platforms: [.linux], configuration: .release))]
        ),

        .testTarget(name: "LosslessJSONTests", dependencies: ["LosslessJSON"]),
        .testTarget(name: "SettingsTests", dependencies: ["Basics"]),
        .testTarget(name: "CognitoEventsTests", dependencies: ["ChallengeFlows", "LosslessJSON"]),
        .testTarget(name: "ChallengeCryptoTests", dependencies: ["Basics", "ChallengeCrypto"]),
        .testTarget(name: "MagicLinkTokenTests", dependencies: ["ChallengeCrypto"]),
        .testTarget(
            name: "SoftwareAuthenticatorTests",
            dependencies: ["CognitoChallengeTesting", "COpenSSL", "ChallengeCrypto", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(name: "CognitoSRPTests", dependencies: ["CognitoSRP", "ChallengeCrypto"], exclude: ["make-vectors.py"]),
        .testTarget(name: "CognitoTokensTests", dependencies: ["Basics", "LocalUserPool", "ChallengeCrypto", "LosslessJSON", "TestSupport"]),
        .testTarget(
            name: "ChallengeFlowsTests",
            dependencies: ["Basics", "ChallengeFlows", "ChallengeCrypto", "LosslessJSON", "CognitoChallengeTesting"]
        ),
        .testTarget(
            name: "CognitoTriggersTests",
            dependencies: [
                "Basics", "CognitoTriggers", "ChallengeFlows", "ServiceClients", "LosslessJSON",
                "CognitoChallengeTesting", "TestSupport", "Invoker", "ChallengeCrypto",
            ]
        ),
        .testTarget(
            name: "PasskeyChallengeTests",
            dependencies: [
                "CognitoChallengeTesting", "ChallengeFlows", "ChallengeCrypto",
                "ServiceClients", "CognitoTriggers", "LosslessJSON", "Invoker", "Basics", "TestSupport",
            ]
        ),
        .testTarget(
            name: "LambdaRuntimeTests",
            dependencies: ["Basics", "LambdaRuntime", "CurlHTTP", "Invoker", "LosslessJSON", "echo-bootstrap", .product(name: "NIOHTTP1", package: "swift-nio")]
        ),
        .testTarget(
            name: "BootstrapTests",
            dependencies: [
                "bootstrap", "ServiceClients", "CurlHTTP", "LosslessJSON", "TestSupport", "Invoker",
                "CognitoChallengeTesting",
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["Basics", "CurlHTTP", "LosslessJSON", "Invoker", "ChallengeFlows", "ChallengeCrypto", "ServiceClients"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "AWSClientTests", dependencies: ["Basics", "ServiceClients", "ChallengeCrypto", "CurlHTTP", "TestSupport"]),
        .testTarget(
            name: "MessageDeliveryTests",
            dependencies: ["Basics", "CFileStatus", "ServiceClients", "ChallengeFlows", "CurlHTTP", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(
            name: "CaptchaVerificationTests",
            dependencies: ["Basics", "ServiceClients", "ChallengeCrypto", "CurlHTTP", "LosslessJSON", "TestSupport"],
            exclude: ["Support/siteverify_standin.py"]
        ),
        .testTarget(
            name: "ChallengeStateStoreTests",
            dependencies: ["Basics", "ChallengeFlows", "ServiceClients", "CurlHTTP", "LosslessJSON", "ChallengeCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "PasskeyRegistrationAPITests",
            dependencies: [
                "CognitoTriggers", "CognitoChallengeTesting", "ChallengeFlows", "ServiceClients", "ChallengeCrypto", "LosslessJSON",
                "Basics", "TestSupport",
            ]
        ),
        .testTarget(
            name: "InvokerTests", dependencies: ["Basics", "Invoker", "ChallengeFlows", "CurlHTTP", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: ["ChallengeFlows", "CognitoChallengeTesting", "ChallengeCrypto", "LosslessJSON", "TestSupport", "Invoker"],
            exclude: ["Support/fido2_verify.py"]
        ),
        .testTarget(
            name: "LocalUserPoolTests",
            dependencies: ["LocalUserPool", "Invoker", "CognitoSRP", "CurlHTTP", "LosslessJSON"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// The folders under `Sources/` that show the architecture: what ships in `bootstrap` (its pure core, the effects, and
/// their assembly), the development tools, and the testing kit.
let sourceLayers: KeyValuePairs<String, [String]> = [
    "Function/Core": [
        "LosslessJSON", "Basics", "ChallengeCrypto", "ChallengeFlows",
    ],
    "Function/Effects": [
        "CCurl", "COpenSSL", "CFileStatus", "ProcessArguments", "CurlHTTP", "LambdaRuntime", "ServiceClients",
    ],
    "Function/Assembly": ["CognitoTriggers", "bootstrap"],
    "Tools": [
        "Invoker", "CognitoSRP", "LocalUserPool", "cognito-local", "runtime-benchmark", "echo-bootstrap",
    ],
    "TestingKit": ["CognitoChallengeTesting"],
]

for target in package.targets where target.type != .test && target.path == nil {
    guard let layer = sourceLayers.first(where: { $0.value.contains(target.name) })?.key else {
        fatalError("Package.swift: put the module \(target.name) in one of the folders of sourceLayers")
    }
    target.path = "Sources/\(layer)/\(target.name)"
}

/// Release links of the runtimes on Linux (`bootstrap`, and `echo-bootstrap` that the benchmark sets beside it) leave
/// out what the process would otherwise map and touch at every start, as `Deploy/package.sh` links the zip's: the C++
/// runtime that the Swift runtime uses is linked in (libgcc statically, and libstdc++'s static archive through the
/// linker script in `Sources/Function/Assembly/bootstrap/static-libstdc++`) instead of loading libstdc++ and libgcc_s;
/// nothing is exported dynamically (`--no-export-dynamic` undoes the `-export-dynamic` of Swift's static-stdlib link,
/// there for the Swift backtracer's symbol names); and relative relocations are packed (DT_RELR) when this machine's
/// glibc reads them (2.36 and later), instead of about 1 MB of records the loader reads at every start. Together about
/// 1.5 MiB less resident memory (docs/benchmark.md).
var leanRuntimeLink: [String] {
    let staticLibstdcxx = String(#filePath.dropLast("Package.swift".count)) + "Sources/Function/Assembly/bootstrap/static-libstdc++"
    var flags = ["-use-ld=lld", "-Xclang-linker", "-static-libgcc", "-L", staticLibstdcxx, "-Xlinker", "--no-export-dynamic"]
    if glibcReadsPackedRelocations { flags += ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] }
    return flags
}

/// Whether the glibc of the machine building (where a release `bootstrap` runs, the benchmark's or the zip's with its
/// shipped glibc) is 2.36 or later, the first to read packed relative relocations.
var glibcReadsPackedRelocations: Bool {
    #if canImport(Glibc)
    var text = [UInt8](repeating: 0, count: 64)  // "glibc 2.36", NUL-terminated
    let length = text.withUnsafeMutableBufferPointer { confstr(Int32(_CS_GNU_LIBC_VERSION), $0.baseAddress, $0.count) }
    guard length > 1 else { return false }
    let words = String(decoding: text.prefix(length - 1), as: UTF8.self).split(separator: " ")
    let version = words.last?.split(separator: ".").compactMap { Int($0) } ?? []
    return version.count >= 2 && (version[0], version[1]) >= (2, 36)
    #else
    return false
    #endif
}

/// Release links of `bootstrap` on Linux lay out the functions a sign-in runs from how often each calls the others
/// (lld's C3 ordering, with the graph in `Sources/Function/Assembly/bootstrap/call-graph.txt`, which
/// `Deploy/symbol-order.sh` regenerates): a callee goes next to the caller that calls it most, so the code of an
/// invocation is a few dense runs of pages and cache lines rather than functions scattered among unused neighbours.
/// Names the graph holds that the code no longer has are ignored.
var bootstrapLinkOrder: [String] {
    let graphFile = String(#filePath.dropLast("Package.swift".count)) + "Sources/Function/Assembly/bootstrap/call-graph.txt"
    return ["-Xlinker", "--call-graph-ordering-file=\(graphFile)", "-Xlinker", "--no-warn-symbol-ordering"]
}
