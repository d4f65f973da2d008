// swift-tools-version:5.4
import PackageDescription

// libFuzzer targets for the code that reads untrusted input. Kept out of the main package so that its default build
// never needs `-sanitize=fuzzer`; build and run them with `Tests/Fuzz/run.sh` (see README.md beside this file).
//   fuzz-json             LosslessJSON's parser, and serialize → reparse giving the same value
//   fuzz-trigger          the whole Cognito trigger handler on raw event bytes, for every sign-in flow
//   fuzz-sigv4            SigV4 canonicalisation and signing of fuzzed requests
//   fuzz-runtime-headers  the Runtime API `next` answer: libcurl header lines → invocation → log lines
//   fuzz-webauthn         the passkey ceremonies: CBOR, authenticator data, COSE keys, attestation, response JSON
//   fuzz-http-api         the passkey registration API: payload 2.0 event → route → body, and bodies of each route

// Tools version 5.4 on purpose: from 5.5 on, SwiftPM renames an executable's entry point to `<module>_main` and links
// `main` to it, which a fuzz target does not have (libFuzzer brings `main`), so linking fails. The code is still
// compiled in the Swift 6 language mode.

/// One fuzz target: a `main.swift` (required for an executable before 5.5) holding `LLVMFuzzerTestOneInput`,
/// compiled as a library so that it has no top-level code and no `main` of its own.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies,
        swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
    name: "cognito-challenge-fuzz",
    platforms: [.macOS(.v11)],
    dependencies: [.package(name: "cognito-challenge-runtime", path: "../..")],
    targets: [
        fuzzTarget("fuzz-json", [.product(name: "LosslessJSON", package: "cognito-challenge-runtime")]),
        fuzzTarget(
            "fuzz-trigger",
            [
                .product(name: "ChallengeFlows", package: "cognito-challenge-runtime"),
                .product(name: "CognitoTriggers", package: "cognito-challenge-runtime"),
                .product(name: "LosslessJSON", package: "cognito-challenge-runtime"),
            ]),
        fuzzTarget("fuzz-sigv4", [.product(name: "ServiceClients", package: "cognito-challenge-runtime")]),
        fuzzTarget(
            "fuzz-runtime-headers",
            [
                .product(name: "CurlHTTP", package: "cognito-challenge-runtime"),
                .product(name: "LambdaRuntime", package: "cognito-challenge-runtime"),
                .product(name: "LosslessJSON", package: "cognito-challenge-runtime"),
            ]),
        fuzzTarget(
            "fuzz-webauthn",
            [
                .product(name: "WebAuthnCeremonies", package: "cognito-challenge-runtime"),
                .product(name: "ChallengeCrypto", package: "cognito-challenge-runtime"),
            ]),
        fuzzTarget(
            "fuzz-http-api",
            [
                .product(name: "CognitoTriggers", package: "cognito-challenge-runtime"),
                .product(name: "ServiceClients", package: "cognito-challenge-runtime"),
                .product(name: "ChallengeFlows", package: "cognito-challenge-runtime"),
                .product(name: "ChallengeCrypto", package: "cognito-challenge-runtime"),
                .product(name: "LosslessJSON", package: "cognito-challenge-runtime"),
                .product(name: "WebAuthnCeremonies", package: "cognito-challenge-runtime"),
            ]),
    ],
    swiftLanguageVersions: [.version("6")]
)
