import ChallengeCrypto
import CognitoChallengeTesting
import CognitoTriggers
import Foundation
import LosslessJSON

/// The browser's part of a passkey sign-in for `sign-in --authenticator FILE`: a software authenticator kept in a
/// file that registers a passkey through the function's own registration API (as a just-signed-in user's browser
/// would, with an access token that `cognito`, standing in for the pool, takes) and then answers the `PASSKEY`
/// challenges.
public struct PasskeyBrowser: Sendable {
    /// Where the authenticator is kept (created on first use, mode 0600).
    public let path: String
    /// The page's origin the ceremonies are made from; one of the function's `PASSKEY_ALLOWED_ORIGINS`.
    public let origin: String
    /// The pool's `GetUser` as the function reaches it (its `COGNITO_IDP_ENDPOINT`), which issues the access tokens.
    public let cognito: CognitoGetUserStandIn

    public init(path: String, origin: String, cognito: CognitoGetUserStandIn) {
        self.path = path
        self.origin = origin
        self.cognito = cognito
    }

    /// What ``ensureRegistered(_:through:)`` did, for the transcript.
    public enum Registration: Sendable, Equatable {
        /// The authenticator already holds a passkey of this user's.
        case alreadyHeld
        /// A new passkey was registered (`POST /passkeys/registration` answered 201).
        case registered(credentialID: String)
    }

    /// Makes sure the authenticator holds a passkey that the function has registered for `identity`: asks the
    /// registration API for creation options (which name the user's handle), and registers a new passkey unless one
    /// for that handle is held.
    public func ensureRegistered(
        _ identity: EventIdentity, through transport: any TriggerTransport
    ) async throws(InvokerError) -> Registration {
        var authenticator = try load()
        let options = try await call("POST", "/passkeys/registration/options", body: Array("{}".utf8), identity, transport, expecting: 200)
        let handle = try Self.userHandle(in: options)
        if authenticator.credentials.contains(where: { $0.userHandle == handle && $0.rpID == Self.rpID(in: options) }) {
            return .alreadyHeld
        }
        let response: String
        do {
            response = try authenticator.register(optionsJSON: String(decoding: options, as: UTF8.self), origin: origin)
        } catch {
            throw .invalidConfiguration("the software authenticator could not register a passkey: \(error)")
        }
        let created = try await call("POST", "/passkeys/registration", body: Array(response.utf8), identity, transport, expecting: 201)
        try save(authenticator)
        let id = (try? JSONValue(parsing: created))?.objectValue?["id"]?.stringValue ?? "?"
        return .registered(credentialID: id)
    }

    /// The `AuthenticationResponseJSON` for a `PASSKEY` challenge's options, or nil when the authenticator holds no
    /// passkey the options allow (they name no credential: any of its passkeys for the relying party answers, and the
    /// function refuses one that is not the user's).
    public func assertion(forOptions options: String) throws(InvokerError) -> String? {
        var authenticator = try load()
        let response: String
        do {
            response = try authenticator.authenticate(optionsJSON: options, origin: origin)
        } catch .noCredential {
            return nil
        } catch {
            throw .invalidConfiguration("the software authenticator could not sign: \(error)")
        }
        try save(authenticator)
        return response
    }

    private func load() throws(InvokerError) -> SoftwareAuthenticator {
        do {
            guard FileManager.default.fileExists(atPath: path) else { return try SoftwareAuthenticator() }
            return try SoftwareAuthenticator(contentsOf: path)
        } catch {
            throw .invalidConfiguration("--authenticator \(path): \(error)")
        }
    }

    private func save(_ authenticator: SoftwareAuthenticator) throws(InvokerError) {
        do {
            try authenticator.save(to: path)
        } catch {
            throw .invalidConfiguration("--authenticator \(path): \(error)")
        }
    }

    /// One request to the registration API, as API Gateway hands it to the function: a fresh access token of the user
    /// in the `authorization` header, and its claims.
    private func call(
        _ method: String, _ path: String, body: [UInt8], _ identity: EventIdentity, _ transport: any TriggerTransport,
        expecting status: Int
    ) async throws(InvokerError) -> [UInt8] {
        let sub = identity.userAttributes["sub"] ?? ""
        let now = Int64(Date().timeIntervalSince1970)
        let token = cognito.issueToken(
            username: identity.userName, sub: sub, userPoolID: identity.userPoolId, region: identity.region,
            clientID: identity.clientId, now: now)
        let claims = [
            "sub": sub, "username": identity.userName, "token_use": "access", "client_id": identity.clientId,
            "scope": "aws.cognito.signin.user.admin", "auth_time": String(now),
            "iss": "https://cognito-idp.\(identity.region).amazonaws.com/\(identity.userPoolId)",
        ]
        let event = APIGatewayEvent.make(
            route: HTTPAPIRoute(method, path), path: path,
            headers: ["content-type": "application/json", "authorization": "Bearer \(token)"], body: body,
            claims: claims, requestId: UUID().uuidString.lowercased(), milliseconds: now * 1000)
        let invocation = try await transport.invoke(event.serialized())
        guard case .response(let bytes) = invocation.outcome,
              let response = (try? JSONValue(parsing: bytes))?.objectValue,
              case .number(let code)? = response["statusCode"], let answered = code.intValue
        else { throw .functionError(type: "InvalidLambdaResponseException", message: "\(method) \(path) got no HTTP API response") }
        let text = response["body"]?.stringValue ?? ""
        guard answered == status else {
            throw .functionError(type: "HTTP \(answered)", message: "\(method) \(path): \(text)")
        }
        return Array(text.utf8)
    }

    private static func userHandle(in options: [UInt8]) throws(InvokerError) -> [UInt8] {
        guard let id = (try? JSONValue(parsing: options))?.objectValue?["user"]?.objectValue?["id"]?.stringValue,
              let handle = Base64URL.decode(id)
        else { throw .functionError(type: "InvalidLambdaResponseException", message: "the creation options name no user.id") }
        return handle
    }

    private static func rpID(in options: [UInt8]) -> String? {
        (try? JSONValue(parsing: options))?.objectValue?["rp"]?.objectValue?["id"]?.stringValue
    }
}
