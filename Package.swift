// swift-tools-version:6.0
import PackageDescription

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
        .library(name: "WebAuthnCeremonies", targets: ["WebAuthnCeremonies"]),
        .library(name: "ChallengeCrypto", targets: ["ChallengeCrypto"]),
        // SystemRandom, which the core's engine and steps take injected.
        .library(name: "Platform", targets: ["Platform"]),
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
        .target(name: "LosslessJSON"),
        .target(name: "Basics"),
        .target(name: "ChallengeCrypto", dependencies: ["COpenSSL", "Basics"]),
        .target(name: "Platform", dependencies: ["COpenSSL", "ChallengeCrypto", "LosslessJSON"]),
        .target(name: "WebAuthnCeremonies", dependencies: ["COpenSSL", "LosslessJSON", "ChallengeCrypto"]),
        .target(name: "ChallengeFlows", dependencies: ["COpenSSL", "LosslessJSON", "ChallengeCrypto", "Basics", "WebAuthnCeremonies"]),
        .target(name: "CognitoSRP", dependencies: ["Platform", "COpenSSL", "ChallengeCrypto"]),
        .target(name: "CurlHTTP", dependencies: ["Platform", "CCurl", "Basics"]),
        .target(name: "LambdaRuntime", dependencies: ["Platform", "CurlHTTP", "LosslessJSON", "Basics"]),
        .target(name: "ServiceClients", dependencies: ["Platform", "Basics", "ChallengeFlows", "ChallengeCrypto", "CurlHTTP", "LosslessJSON"]),
        .target(
            name: "CognitoTriggers",
            dependencies: [
                "WebAuthnCeremonies", "Platform", "Basics", "ChallengeFlows", "ChallengeCrypto", "ServiceClients", "LosslessJSON", "LambdaRuntime",
            ]
        ),
        .target(
            name: "CognitoChallengeTesting",
            dependencies: ["Platform", "ChallengeFlows", "CognitoTriggers", "ChallengeCrypto", "LosslessJSON", "COpenSSL"]
        ),
        .executableTarget(name: "bootstrap", dependencies: ["CognitoTriggers"]),
        .target(name: "DevelopmentSupport", dependencies: ["LosslessJSON", "Platform"]),
        .target(
            name: "Invoker",
            dependencies: [
                "DevelopmentSupport", "Platform", "CognitoTriggers", "ChallengeFlows", "ServiceClients", "LosslessJSON", "Basics",
                "CognitoChallengeTesting", "ChallengeCrypto",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "LocalUserPool",
            dependencies: [
                "Platform", "Invoker", "CognitoSRP", "COpenSSL", "ChallengeFlows", "ChallengeCrypto", "LosslessJSON", "CognitoTriggers",
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        .executableTarget(
            name: "cognito-local",
            dependencies: [
                "DevelopmentSupport", "Platform", "Invoker", "LocalUserPool", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "runtime-benchmark",
            dependencies: ["DevelopmentSupport", "Platform", "Invoker", "ServiceClients", "LosslessJSON"],
            // The C floor: the benchmark compiles it with the system C compiler, as a user would, not SwiftPM.
            exclude: ["runtime-floor.c"]
        ),
        .executableTarget(name: "echo-bootstrap", dependencies: ["LambdaRuntime"]),

        .testTarget(name: "LosslessJSONTests", dependencies: ["LosslessJSON"]),
        .testTarget(name: "SettingsTests", dependencies: ["Basics"]),
        .testTarget(name: "CognitoEventsTests", dependencies: ["ChallengeFlows", "LosslessJSON"]),
        .testTarget(name: "ChallengeCryptoTests", dependencies: ["Platform", "ChallengeCrypto"]),
        .testTarget(name: "MagicLinkTokenTests", dependencies: ["ChallengeCrypto", "Platform"]),
        .testTarget(
            name: "SoftwareAuthenticatorTests",
            dependencies: ["CognitoChallengeTesting", "COpenSSL", "ChallengeCrypto", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(name: "CognitoSRPTests", dependencies: ["Platform", "CognitoSRP", "ChallengeCrypto"], exclude: ["make-vectors.py"]),
        .testTarget(name: "CognitoTokensTests", dependencies: ["Platform", "LocalUserPool", "ChallengeCrypto", "LosslessJSON", "TestSupport"]),
        .testTarget(
            name: "ChallengeFlowsTests",
            dependencies: ["Platform", "ChallengeFlows", "ChallengeCrypto", "LosslessJSON", "CognitoChallengeTesting"]
        ),
        .testTarget(
            name: "CognitoTriggersTests",
            dependencies: [
                "DevelopmentSupport", "WebAuthnCeremonies", "Platform", "Basics", "CognitoTriggers", "ChallengeFlows", "ServiceClients", "LosslessJSON",
                "CognitoChallengeTesting", "TestSupport", "Invoker", "ChallengeCrypto",
            ]
        ),
        .testTarget(
            name: "PasskeyChallengeTests",
            dependencies: [
                "DevelopmentSupport", "WebAuthnCeremonies", "Platform", "CognitoChallengeTesting", "ChallengeFlows", "ChallengeCrypto",
                "ServiceClients", "CognitoTriggers", "LosslessJSON", "Invoker", "TestSupport",
            ]
        ),
        .testTarget(
            name: "LambdaRuntimeTests",
            dependencies: ["Platform", "Basics", "LambdaRuntime", "CurlHTTP", "Invoker", "LosslessJSON", "echo-bootstrap", .product(name: "NIOHTTP1", package: "swift-nio")]
        ),
        .testTarget(
            name: "BootstrapTests",
            dependencies: [
                "DevelopmentSupport", "bootstrap", "ServiceClients", "CurlHTTP", "LosslessJSON", "TestSupport", "Invoker",
                "CognitoChallengeTesting",
            ]
        ),
        .target(
            name: "TestSupport",
            dependencies: ["DevelopmentSupport", "Platform", "CurlHTTP", "LosslessJSON", "ChallengeFlows", "ChallengeCrypto", "ServiceClients"],
            path: "Tests/TestSupport"
        ),
        .testTarget(name: "AWSClientTests", dependencies: ["DevelopmentSupport", "Basics", "ServiceClients", "ChallengeCrypto", "CurlHTTP", "TestSupport"]),
        .testTarget(
            name: "MessageDeliveryTests",
            dependencies: ["Basics", "ServiceClients", "ChallengeFlows", "CurlHTTP", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(
            name: "CaptchaVerificationTests",
            dependencies: ["Basics", "ServiceClients", "ChallengeCrypto", "CurlHTTP", "LosslessJSON", "TestSupport"],
            exclude: ["Support/siteverify_standin.py"]
        ),
        .testTarget(
            name: "ChallengeStateStoreTests",
            dependencies: ["Platform", "Basics", "ChallengeFlows", "ServiceClients", "CurlHTTP", "LosslessJSON", "ChallengeCrypto", "TestSupport"]
        ),
        .testTarget(
            name: "PasskeyRegistrationAPITests",
            dependencies: [
                "WebAuthnCeremonies", "Platform", "CognitoTriggers", "CognitoChallengeTesting", "ChallengeFlows", "ServiceClients", "ChallengeCrypto", "LosslessJSON",
                "TestSupport",
            ]
        ),
        .testTarget(
            name: "InvokerTests", dependencies: ["DevelopmentSupport", "Platform", "Invoker", "ChallengeFlows", "CurlHTTP", "LosslessJSON", "TestSupport"]
        ),
        .testTarget(
            name: "WebAuthnTests",
            dependencies: ["DevelopmentSupport", "WebAuthnCeremonies", "Platform", "ChallengeFlows", "CognitoChallengeTesting", "ChallengeCrypto", "LosslessJSON", "TestSupport", "Invoker"],
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
        "LosslessJSON", "Basics", "ChallengeCrypto", "WebAuthnCeremonies", "ChallengeFlows",
    ],
    "Function/Effects": [
        "CCurl", "COpenSSL", "Platform", "CurlHTTP", "LambdaRuntime", "ServiceClients",
    ],
    "Function/Assembly": ["CognitoTriggers", "bootstrap"],
    "Tools": [
        "DevelopmentSupport", "Invoker", "CognitoSRP", "LocalUserPool", "cognito-local", "runtime-benchmark", "echo-bootstrap",
    ],
    "TestingKit": ["CognitoChallengeTesting"],
]

for target in package.targets where target.type != .test && target.path == nil {
    guard let layer = sourceLayers.first(where: { $0.value.contains(target.name) })?.key else {
        fatalError("Package.swift: put the module \(target.name) in one of the folders of sourceLayers")
    }
    target.path = "Sources/\(layer)/\(target.name)"
}
