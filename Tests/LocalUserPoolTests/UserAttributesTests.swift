import Foundation
import Invoker
import LocalUserPool
import LosslessJSON
import Testing

/// Attributes of any name from the users table and the attribute operations, what reaches the triggers, and the app
/// client's WriteAttributes and ReadAttributes as Deploy/template.yaml sets them.
@Suite("User attributes and the app client's attribute rules, over HTTP", .serialized)
struct UserAttributesTests {
    static let clientId = LocalDefaults.clientId
    static let poolId = LocalDefaults.userPoolId
    static let write: Set<String> = ["name", "given_name", "family_name", "locale"]
    static let read: Set<String> = [
        "email", "email_verified", "phone_number", "phone_number_verified", "name", "given_name", "family_name", "locale",
    ]

    static func table() throws -> LocalUserTable {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("users-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try Data("""
            [{"userName": "Alice", "password": "Correct-Horse-9", "email": "alice@example.com",
              "attributes": {"custom:totp_secret": "JBSWY3DPEHPK3PXP", "email_verified": "false", "name": "Alice A", "custom:level": 3}}]
            """.utf8).write(to: scratch)
        return try LocalUserTable.load(path: scratch.path)
    }

    /// The `userAttributes` of the last event the triggers got.
    static func lastUserAttributes(_ recording: RecordingTransport) async -> [String: String] {
        var attributes: [String: String] = [:]
        for (name, value) in await recording.events.last?["request"]?.objectValue?["userAttributes"]?.objectValue ?? JSONObject() {
            attributes[name] = value.stringValue
        }
        return attributes
    }

    /// Signs in with the email code; the access token.
    static func signIn(_ harness: PoolHarness, as name: String, user: String, outbox: String? = nil) async throws -> JSONObject {
        let challenge = try await harness.call("InitiateAuth", [
            "AuthFlow": "CUSTOM_AUTH", "ClientId": .string(clientId), "AuthParameters": ["USERNAME": .string(name)],
        ])
        #expect(challenge.body["ChallengeName"] == "CUSTOM_CHALLENGE", "\(challenge.body)")
        let signedIn = try await harness.call("RespondToAuthChallenge", [
            "ClientId": .string(clientId), "ChallengeName": "CUSTOM_CHALLENGE",
            "Session": .string(try #require(challenge.body["Session"]?.stringValue)),
            "ChallengeResponses": ["USERNAME": .string(name), "ANSWER": .string(try #require(try harness.latestCode(for: user, outbox: outbox)))],
        ])
        return try #require(signedIn.body["AuthenticationResult"]?.objectValue, "\(signedIn.body)")
    }

    @Test("the users table's attributes reach the triggers as Cognito sends them; GetUser and the ID token show only readable ones")
    func tableAttributesReachTheTriggers() async throws {
        let outbox = FileManager.default.temporaryDirectory.appendingPathComponent("attributes-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: outbox) }
        // The address is unverified, so the email step must not need a verified one to deliver here.
        let recording = try RecordingTransport(flow: "email-code", outbox: outbox, environment: ["REQUIRE_VERIFIED_EMAIL": "false"])
        let harness = try await PoolHarness(
            transport: recording, users: try Self.table(), writeAttributes: Self.write, readAttributes: Self.read)
        do {
            let tokens = try await Self.signIn(harness, as: "ALICE", user: "Alice", outbox: outbox)
            let seen = await Self.lastUserAttributes(recording)
            #expect(seen["custom:totp_secret"] == "JBSWY3DPEHPK3PXP")
            #expect(seen["custom:level"] == "3")
            #expect(seen["email_verified"] == "false")
            #expect(seen["name"] == "Alice A")
            #expect(seen["cognito:user_status"] == "CONFIRMED")

            let claims = try JWT.verify(try #require(tokens["IdToken"]?.stringValue), key: harness.key, now: Int64(Date().timeIntervalSince1970))
            #expect(claims["cognito:username"] == "Alice")
            #expect(claims["email_verified"] == false)
            #expect(claims["name"] == "Alice A")
            #expect(claims["custom:totp_secret"] == nil)

            let user = try await harness.call("GetUser", ["AccessToken": .string(try #require(tokens["AccessToken"]?.stringValue))])
            let names = (user.body["UserAttributes"]?.arrayValue ?? []).compactMap { $0.objectValue?["Name"]?.stringValue }
            #expect(names.contains("name") && names.contains("sub") && !names.contains("custom:totp_secret") && !names.contains("custom:level"))
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("UpdateUserAttributes writes only the client's WriteAttributes; AdminUpdateUserAttributes any; names ignore case")
    func attributeUpdates() async throws {
        let harness = try await PoolHarness(writeAttributes: Self.write, readAttributes: Self.read)
        do {
            let tokens = try await Self.signIn(harness, as: "JANE", user: "jane")
            let accessToken = try #require(tokens["AccessToken"]?.stringValue)
            for name in ["custom:totp_secret", "email", "email_verified"] {
                let refused = try await harness.call("UpdateUserAttributes", [
                    "AccessToken": .string(accessToken), "UserAttributes": [["Name": .string(name), "Value": "x"]],
                ])
                #expect(refused.errorType == "NotAuthorizedException")
                #expect(refused.body["message"] == "A client attempted to write unauthorized attribute")
            }
            let written = try await harness.call("UpdateUserAttributes", [
                "AccessToken": .string(accessToken), "UserAttributes": [["Name": "given_name", "Value": "Janet"]],
            ])
            #expect(written.status == 200, "\(written.body)")
            let adminWritten = try await harness.call("AdminUpdateUserAttributes", [
                "UserPoolId": .string(Self.poolId), "Username": "Jane",
                "UserAttributes": [["Name": "custom:totp_secret", "Value": "KRSXG5CTMVRXEZLU"], ["Name": "email", "Value": "jane@example.org"]],
            ])
            #expect(adminWritten.status == 200, "\(adminWritten.body)")
            let user = try await harness.call("AdminGetUser", ["UserPoolId": .string(Self.poolId), "Username": "jAnE"])
            var attributes: [String: String] = [:]
            for element in user.body["UserAttributes"]?.arrayValue ?? [] {
                if let name = element.objectValue?["Name"]?.stringValue { attributes[name] = element.objectValue?["Value"]?.stringValue }
            }
            #expect(user.body["Username"] == "jane")
            #expect(attributes["given_name"] == "Janet")
            #expect(attributes["custom:totp_secret"] == "KRSXG5CTMVRXEZLU")
            #expect(attributes["email"] == "jane@example.org")
            #expect(attributes["email_verified"] == "false", "a new address is unverified, as in Cognito")
            let taken = try await harness.call("AdminCreateUser", ["UserPoolId": .string(Self.poolId), "Username": "JANE"])
            #expect(taken.errorType == "UsernameExistsException")
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }
}
