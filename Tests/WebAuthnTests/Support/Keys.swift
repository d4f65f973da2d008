@testable import CognitoChallengeTesting

/// The tests' keys are the software authenticator's own (P-256, Ed25519 and 2048-bit RSA, each signing in its
/// algorithm's format), made once per test run: RSA key generation is slow.
extension KeyHandle {
    /// One key of each algorithm.
    static let shared = oneOfEach()
    /// A second key of each algorithm: "another credential".
    static let others = oneOfEach()

    private static func oneOfEach() -> [COSEAlgorithm: KeyHandle] {
        // OpenSSL that cannot make a key leaves no test that could run.
        Dictionary(uniqueKeysWithValues: COSEAlgorithm.allCases.map { ($0, try! generate($0)) })
    }

    /// The public key as a COSE_Key, encoded.
    var coseBytes: [UInt8] {
        get throws(SoftwareAuthenticatorError) { try coseKey().encoded() }
    }
}
