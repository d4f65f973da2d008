import ChallengeCrypto
import Foundation
import LocalUserPool
import LosslessJSON
import TestSupport
import Testing

/// The issued tokens checked by a verifier nobody here wrote: PyJWT with the `cryptography` backend
/// (`.ci/setup --test` installs `pyjwt[crypto]`), reading the key from the published JWKS as a relying party would.
@Suite(.requires(.pyJWT)) struct PyJWTVerificationTests {
    static let poolURL = "http://127.0.0.1:9229/us-east-1_Local"
    static let clientID = "local-client"

    /// Arguments: the JWKS file, the token file, the issuer, and the audience ("-" for an access token, which has
    /// none). Prints the verified claims as JSON; on failure prints the exception's class and exits with 1.
    static let verifier = """
        import json, sys, jwt
        jwks_path, token_path, issuer, audience = sys.argv[1:5]
        token = open(token_path).read()
        jwks = jwt.PyJWKSet.from_json(open(jwks_path).read())
        try:
            key = jwks[jwt.get_unverified_header(token)["kid"]]
            claims = jwt.decode(token, key, algorithms=["RS256"], issuer=issuer,
                                audience=None if audience == "-" else audience,
                                options={"require": ["exp", "iat", "iss", "sub"]})
        except (jwt.PyJWTError, KeyError) as error:
            print(type(error).__name__, error, file=sys.stderr)
            sys.exit(1)
        print(json.dumps(claims))
        """

    struct Verdict {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Writes the JWKS of both test keys and `token` to a temporary directory and runs the verifier on them.
    static func verifyWithPyJWT(_ token: String, audience: String?) throws -> Verdict {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cognito-tokens-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let jwksURL = directory.appendingPathComponent("jwks.json"), tokenURL = directory.appendingPathComponent("token")
        try Data(JWKS.document(keys: [TestKeys.second, TestKeys.first]).serialized()).write(to: jwksURL)
        try Data(token.utf8).write(to: tokenURL)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", verifier, jwksURL.path, tokenURL.path, poolURL, audience ?? "-"]
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Verdict(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    static func issue(now: Int64) throws -> IssuedTokens {
        let issuer = CognitoTokenIssuer(issuer: poolURL, clientID: clientID, key: TestKeys.first)
        return try issuer.issue(
            subject: "0c5f-sub", userName: "alice", attributes: ["email": "alice@example.com", "email_verified": "true"],
            authTime: now, now: now)
    }

    static var now: Int64 { Int64(Date().timeIntervalSince1970) }

    @Test func acceptsTheIDTokenWithTheSameClaimsSwiftReads() throws {
        let token = try Self.issue(now: Self.now).idToken
        let verdict = try Self.verifyWithPyJWT(token, audience: Self.clientID)
        #expect(verdict.status == 0, "\(verdict.stderr)")
        let pythonClaims = try JSONValue(parsing: verdict.stdout).objectValue
        #expect(pythonClaims == (try JWT.verify(token, key: TestKeys.first, now: Self.now)))
        #expect(pythonClaims?["email_verified"] == true)
    }

    @Test func acceptsTheAccessToken() throws {
        let token = try Self.issue(now: Self.now).accessToken
        let verdict = try Self.verifyWithPyJWT(token, audience: nil)
        #expect(verdict.status == 0, "\(verdict.stderr)")
        let pythonClaims = try JSONValue(parsing: verdict.stdout).objectValue
        #expect(pythonClaims?["token_use"] == "access")
        #expect(pythonClaims?["client_id"] == .string(Self.clientID))
    }

    @Test func rejectsATamperedToken() throws {
        let parts = try Self.issue(now: Self.now).idToken.split(separator: ".")
        var claims = try #require(Base64URL.decode(parts[1]).flatMap { try? JSONValue(parsing: $0).objectValue })
        claims["cognito:username"] = "mallory"
        let tampered = "\(parts[0]).\(Base64URL.encode(JSONValue.object(claims).serialized())).\(parts[2])"
        let verdict = try Self.verifyWithPyJWT(tampered, audience: Self.clientID)
        #expect(verdict.status == 1)
        #expect(verdict.stderr.hasPrefix("InvalidSignatureError"), "\(verdict.stderr)")
    }

    @Test func rejectsAnExpiredToken() throws {
        let token = try Self.issue(now: Self.now - 7200).idToken
        let verdict = try Self.verifyWithPyJWT(token, audience: Self.clientID)
        #expect(verdict.status == 1)
        #expect(verdict.stderr.hasPrefix("ExpiredSignatureError"), "\(verdict.stderr)")
    }

    @Test func rejectsAnotherClientsToken() throws {
        let token = try Self.issue(now: Self.now).idToken
        let verdict = try Self.verifyWithPyJWT(token, audience: "another-client")
        #expect(verdict.status == 1)
        #expect(verdict.stderr.hasPrefix("InvalidAudienceError"), "\(verdict.stderr)")
    }
}
