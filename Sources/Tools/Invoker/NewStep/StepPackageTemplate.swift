/// The files of a new step package, as `cognito-local new-step NAME` writes them: a step of your own on the public
/// step API (a security word kept in a user attribute, to replace with your logic), a one-line `bootstrap`, tests that
/// drive sign-ins with `SignInSimulator`, a users table for the local tools, and a README.
public struct StepPackageTemplate: Sendable {
    /// The step's name in `CHALLENGE_FLOW`, e.g. `security-word`.
    public let stepName: String
    /// The path of this package (cognito-challenge-runtime) the new one depends on.
    public let runtimePath: String

    /// - Throws: ``InvokerError/usage(_:)`` for a name a step cannot have.
    public init(stepName: String, runtimePath: String) throws(InvokerError) {
        guard let first = stepName.unicodeScalars.first, ("a"..."z").contains(first),
              stepName.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }),
              !stepName.hasSuffix("-"), !stepName.contains("--")
        else {
            throw .usage("\"\(stepName)\" cannot name a step: use lower-case letters, digits and single hyphens, starting with a letter (e.g. security-word)")
        }
        self.stepName = stepName
        self.runtimePath = runtimePath
    }

    /// `SecurityWord` for `security-word`.
    public var typeStem: String {
        stepName.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The step's kind, `SECURITY_WORD` for `security-word`.
    public var kind: String { stepName.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The user attribute the example step reads: `custom:security_word`.
    public var attribute: String { "custom:" + stepName.replacingOccurrences(of: "-", with: "_") }

    /// The package's executable, packaged for Lambda as `bootstrap`.
    public var bootstrapProduct: String { "\(stepName)-bootstrap" }

    /// Every file, by its path in the package.
    public var files: [(path: String, contents: String)] {
        [
            ("Package.swift", packageManifest),
            ("Sources/\(typeStem)Challenge/\(typeStem)Step.swift", step),
            ("Sources/\(typeStem)Bootstrap/main.swift", bootstrap),
            ("Tests/\(typeStem)ChallengeTests/\(typeStem)StepTests.swift", tests),
            ("users.json", users),
            ("README.md", readme),
            (".gitignore", ".build/\nPackage.resolved\n"),
        ]
    }

    private var packageManifest: String {
        """
        // swift-tools-version:6.0
        import PackageDescription

        // The `\(stepName)` challenge step, on cognito-challenge-runtime's public step API.
        let package = Package(
            name: "\(typeStem)Step",
            platforms: [.macOS(.v15)],
            products: [
                .library(name: "\(typeStem)Challenge", targets: ["\(typeStem)Challenge"]),
                // Packaged for Lambda as `bootstrap`: Deploy/package.sh --package-path . --product \(bootstrapProduct)
                .executable(name: "\(bootstrapProduct)", targets: ["\(typeStem)Bootstrap"]),
            ],
            dependencies: [
                .package(name: "cognito-challenge-runtime", path: "\(runtimePath)"),
            ],
            targets: [
                .target(
                    name: "\(typeStem)Challenge",
                    dependencies: [.product(name: "ChallengeFlows", package: "cognito-challenge-runtime")]
                ),
                .executableTarget(
                    name: "\(typeStem)Bootstrap",
                    dependencies: ["\(typeStem)Challenge", .product(name: "CognitoTriggers", package: "cognito-challenge-runtime")]
                ),
                .testTarget(
                    name: "\(typeStem)ChallengeTests",
                    dependencies: [
                        "\(typeStem)Challenge",
                        .product(name: "ChallengeFlows", package: "cognito-challenge-runtime"),
                        .product(name: "CognitoChallengeTesting", package: "cognito-challenge-runtime"),
                    ]
                ),
            ],
            swiftLanguageModes: [.v6]
        )

        """
    }

    private var step: String {
        """
        import ChallengeFlows

        /// The `\(stepName)` step (kind `\(kind)`): the user answers with a word kept in the `\(attribute)` attribute.
        ///
        /// A starting point: replace `create` and `judge` with your own logic. The engine around a step seals the
        /// answer, counts wrong answers, refuses answers after expiry and refuses every answer of an unknown user.
        public struct \(typeStem)Step: ChallengeStep {
            /// The user attribute that holds the word.
            public static let attribute = "\(attribute)"

            public var name: String { "\(stepName)" }
            public var kind: ChallengeKind { ChallengeKind(rawValue: "\(kind)")! }
            /// Only the user knows the word.
            public var provesIdentity: Bool { true }

            public init() {}

            /// Asks for the word. A user without one gets the same question, sealed so that no answer passes.
            public func create(_ context: StepContext) throws -> StepChallenge {
                let word = context.userAttributes[Self.attribute].map(normalize) ?? ""
                return StepChallenge(
                    publicParameters: ["question": "What is your security word?"],
                    sealing: word.isEmpty ? .nonce : .answer(word))
            }

            /// Case and surrounding white space do not matter.
            public func normalize(_ answer: String) -> String {
                String(answer.lowercased().drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            }

            /// The word itself, for simulations and `cognito-local sign-in --answers @expected`.
            public func expectedAnswer(publicParameters: [String: String], context: StepContext) -> String? {
                context.userAttributes[Self.attribute]
            }
        }

        """
    }

    private var bootstrap: String {
        """
        import CognitoTriggers
        import \(typeStem)Challenge

        // The three triggers with the built-in steps and `\(stepName)`: set CHALLENGE_FLOW=\(stepName) (or srp+\(stepName), …).
        CognitoTriggerFunction.run(steps: [\(typeStem)Step()])

        """
    }

    private var tests: String {
        """
        import ChallengeFlows
        import CognitoChallengeTesting
        import Testing
        import \(typeStem)Challenge

        @Suite("\(stepName): sign-ins driven the way Cognito drives them")
        struct \(typeStem)StepTests {
            static let attributes = ["sub": "5f1c7e2a", \(typeStem)Step.attribute: "Marmalade"]

            func simulator(_ flow: String = "\(stepName)", attributes: [String: String] = attributes) throws -> SignInSimulator {
                try SignInSimulator(flow: flow, steps: [\(typeStem)Step()], userAttributes: attributes)
            }

            @Test("the right word signs in, in any case")
            func rightWord() throws {
                var simulator = try simulator()
                #expect(try simulator.signIn(answers: [.typed(" marmalade ")]) == .signedIn)
                #expect(simulator.publicParameters.first?["challenge"] == "\(kind)")
            }

            @Test("after SRP, a wrong word and then the right one")
            func afterSRP() throws {
                var simulator = try simulator("srp+\(stepName)")
                #expect(try simulator.signIn(answers: [.wrong, .right]) == .signedIn)
            }

            @Test("three wrong words fail the sign-in")
            func wrongWords() throws {
                var simulator = try simulator()
                #expect(try simulator.signIn(answers: [.wrong, .wrong, .wrong]) == .failed(.tooManyWrongAnswers(\(typeStem)Step().kind)))
            }

            @Test("an unknown user, or one without a word, never signs in")
            func noWord() throws {
                var unknown = try simulator()
                unknown.userNotFound = true
                #expect(try unknown.signIn(answers: [.typed("Marmalade"), .typed("Marmalade"), .typed("Marmalade")]) != .signedIn)
                var withoutWord = try simulator(attributes: ["sub": "5f1c7e2a"])
                #expect(try withoutWord.signIn(answers: [.typed(""), .typed("x"), .typed("Marmalade")]) != .signedIn)
            }
        }

        """
    }

    private var users: String {
        """
        [
          {"userName": "jane", "password": "Correct-Horse-9", "email": "jane.doe@example.com",
           "attributes": {"\(attribute)": "Marmalade"}}
        ]

        """
    }

    private var readme: String {
        """
        # \(typeStem)Step

        A challenge step of your own, `\(stepName)` (kind `\(kind)`), for the Cognito custom-auth triggers of
        cognito-challenge-runtime. It starts as a security word kept in the user attribute `\(attribute)`: change
        `Sources/\(typeStem)Challenge/\(typeStem)Step.swift` to your own logic.

        ```sh
        swift build                  # the step and its bootstrap
        swift test                   # sign-ins driven the way Cognito drives them
        ```

        Sign jane in (users.json gives her the word) through the real bootstrap, with the local tools of
        cognito-challenge-runtime (`swift build` there first):

        ```sh
        RUNTIME=\(runtimePath)
        $RUNTIME/.build/debug/cognito-local sign-in --bootstrap .build/debug/\(bootstrapProduct) \\
            --flow \(stepName) --users users.json --answers @expected
        ```

        `cognito-local pool --bootstrap .build/debug/\(bootstrapProduct) --users users.json` serves a local user pool
        that boto3 or the AWS SDKs sign in to with `CHALLENGE_FLOW=\(stepName)`. To ship it, package this bootstrap:
        `$RUNTIME/Deploy/package.sh --package-path . --product \(bootstrapProduct)`.

        """
    }
}
