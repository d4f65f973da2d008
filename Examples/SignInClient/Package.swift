// swift-tools-version:6.0
import PackageDescription

// An example client: `sign-in-client` signs a user in against the Cognito API (a real user pool, or
// `cognito-local pool`) through the flows the triggers offer. It speaks Cognito's JSON protocol over the main
// package's libcurl handle (CurlHTTP), answers PASSWORD_VERIFIER with the client side of the main package's SRP
// (CognitoSRP), loops over CUSTOM_CHALLENGE, and prints the tokens' claims. It depends on the main package by path.
let package = Package(
    name: "SignInClient",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sign-in-client", targets: ["sign-in-client"]),
    ],
    dependencies: [
        .package(name: "cognito-challenge-runtime", path: "../.."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "sign-in-client",
            dependencies: [
                .product(name: "CognitoSRP", package: "cognito-challenge-runtime"),
                .product(name: "ChallengeCrypto", package: "cognito-challenge-runtime"),
                .product(name: "CurlHTTP", package: "cognito-challenge-runtime"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
