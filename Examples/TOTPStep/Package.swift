// swift-tools-version:6.0
import PackageDescription

// An example of a challenge step of your own: TOTP (RFC 6238) against a secret in a user attribute, tested with
// CognitoChallengeTesting and served by a bootstrap of one line. It depends on the main package by path.
let package = Package(
    name: "TOTPStep",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TOTPChallenge", targets: ["TOTPChallenge"]),
        // Packaged for Lambda as `bootstrap`, like the main package's own.
        .executable(name: "totp-bootstrap", targets: ["TOTPBootstrap"]),
    ],
    dependencies: [
        .package(name: "cognito-challenge-runtime", path: "../.."),
    ],
    targets: [
        .target(
            name: "TOTPChallenge",
            dependencies: [
                .product(name: "ChallengeFlows", package: "cognito-challenge-runtime"),
                .product(name: "ChallengeCrypto", package: "cognito-challenge-runtime"),
            ]
        ),
        .executableTarget(
            name: "TOTPBootstrap",
            dependencies: ["TOTPChallenge", .product(name: "CognitoTriggers", package: "cognito-challenge-runtime")]
        ),
        .testTarget(
            name: "TOTPChallengeTests",
            dependencies: [
                "TOTPChallenge",
                .product(name: "ChallengeFlows", package: "cognito-challenge-runtime"),
                .product(name: "CognitoChallengeTesting", package: "cognito-challenge-runtime"),
                .product(name: "CognitoTriggers", package: "cognito-challenge-runtime"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
