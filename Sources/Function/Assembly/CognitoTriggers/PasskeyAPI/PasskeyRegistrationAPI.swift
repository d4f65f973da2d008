import Basics
import ChallengeCrypto
import ChallengeFlows
import LosslessJSON
import Platform
import ServiceClients
import WebAuthnCeremonies

/// The passkey registration API (WebAuthn §7.1) behind an API Gateway HTTP API with a JWT authorizer over the user
/// pool: each caller registers, lists, renames and removes their own passkeys.
///
/// The caller is whoever Cognito says the bearer token in the `authorization` header belongs to (`AccessTokenVerifier`,
/// `GetUser`): the authorizer's claims in the event prove nothing, since anyone allowed to invoke the function can
/// write them, and API Gateway's authorizer cannot see a revoked token. Adding a passkey (both registration routes)
/// also needs a recent sign-in: the token's `auth_time` at most ``maximumSignInAge`` seconds ago, so that a stolen
/// token cannot become a lasting way in. Nothing in a request can name another user.
///
/// Routes (JSON bodies; every refusal is a 4xx whose body is `{"message": …}`):
/// - `POST /passkeys/registration/options`, body `{}` or none → 200, `PublicKeyCredentialCreationOptionsJSON`
///   (what `PublicKeyCredential.parseCreationOptionsFromJSON` takes). Its challenge is kept for the ceremony's timeout
///   and can be used once.
/// - `POST /passkeys/registration`, body the `RegistrationResponseJSON` (`JSON.stringify(credential)`), optionally
///   with one more top-level member `"name"`, the passkey's name → 201, the passkey as `GET /passkeys` lists it.
/// - `GET /passkeys` → 200, `{"passkeys": [{id, name, transports, createdAt, lastUsedAt, backupEligible, backedUp,
///   aaguid}]}`, oldest first; ids base64url, times Unix seconds, `lastUsedAt` null before the first sign-in.
/// - `PATCH /passkeys/{id}`, body `{"name": …}` → 200, the renamed passkey.
/// - `DELETE /passkeys/{id}` → 204.
///
/// Every change is decided from the record read and stored with one conditional write on its version.
public struct PasskeyRegistrationAPI: Sendable {
    /// The relying party and limits; nil when passkeys are not configured (every request then gets a 404 that says so).
    public let settings: PasskeySettings?
    let store: (any StateStore)?
    let recordKey: [UInt8]
    let tokens: (any AccessTokenVerifier)?
    /// How long after a sign-in (`auth_time`) its tokens may still add a passkey, in seconds.
    public let maximumSignInAge: Int64
    let clock: @Sendable () -> Int64
    let random: any RandomSource

    /// The largest request body read, in bytes; a registration response is a few kilobytes.
    public static let maximumBodySize = 64 * 1024
    /// The longest passkey name, in characters.
    public static let maximumNameLength = 64
    /// The bytes of a challenge and of a new user handle.
    static let randomByteCount = 32
    /// The default of ``maximumSignInAge``: five minutes.
    public static let defaultMaximumSignInAge: Int64 = 300

    /// - Parameters:
    ///   - settings: the passkey configuration; nil answers every request with "not configured".
    ///   - store: where accounts, pending challenges and credential claims live (the table the triggers use).
    ///   - recordKey: the secret that derives the records' keys, the one the sign-in step uses.
    ///   - tokens: proves each request's bearer token (Cognito's `GetUser`); nil refuses every request.
    ///   - maximumSignInAge: seconds after a sign-in that its tokens may still add a passkey.
    ///   - clock: Unix seconds.
    ///   - random: where challenges and user handles come from (OpenSSL's CSPRNG).
    public init(
        settings: PasskeySettings?, store: (any StateStore)?, recordKey: [UInt8], tokens: (any AccessTokenVerifier)?,
        maximumSignInAge: Int64 = defaultMaximumSignInAge, clock: @escaping @Sendable () -> Int64,
        random: any RandomSource = SystemRandom()
    ) {
        self.settings = settings
        self.store = store
        self.recordKey = recordKey
        self.tokens = tokens
        self.maximumSignInAge = maximumSignInAge
        self.clock = clock
        self.random = random
    }

    /// Reads a payload 2.0 event (see ``HTTPAPIEvent/isHTTPAPIEvent(_:)``) and answers it; an event of the wrong
    /// shape gets a 400 naming the field.
    public func handle(_ json: JSONValue) -> HTTPAPIResult {
        do {
            return handle(try HTTPAPIEvent(json: json))
        } catch {
            let requestID = json.objectValue?["requestContext"]?.objectValue?["requestId"]?.stringValue ?? ""
            return HTTPAPIResult(
                response: .message(400, "The request could not be read: \(error)."),
                summary: "HTTP API event refused (400): \(error)", requestID: requestID)
        }
    }

    /// Answers one request. Never throws: a client's mistake is a 4xx, a failure on this side a 5xx whose detail is
    /// in ``HTTPAPIResult/logDetail``.
    public func handle(_ event: HTTPAPIEvent) -> HTTPAPIResult {
        let route = Route(event)
        do {
            let response = try answer(event, route: route)
            return HTTPAPIResult(response: response, summary: "\(route) → \(response.statusCode)", requestID: event.requestID)
        } catch {
            let response = error.response(requestID: event.requestID)
            return HTTPAPIResult(
                response: response, summary: "\(route) → \(response.statusCode)\(response.message.map { ": \($0)" } ?? "")",
                requestID: event.requestID, logDetail: error.logDetail)
        }
    }

    private func answer(_ event: HTTPAPIEvent, route: Route) throws(APIRefusal) -> HTTPAPIResponse {
        guard let settings else {
            throw .notFound(
                "passkeys are not configured (set PASSKEY_RP_ID, PASSKEY_RP_NAME and PASSKEY_ALLOWED_ORIGINS on the function)")
        }
        guard let token = Self.bearerToken(event.headers["authorization"]) else {
            throw Caller.unauthorized("The request has no bearer token")
        }
        guard event.body.count <= Self.maximumBodySize else {
            throw .refused(status: 413, message: "The request body is \(event.body.count) bytes; the most accepted is \(Self.maximumBodySize).")
        }
        guard let store else {
            throw .refused(
                status: 503, message: "Passkeys need a state store: set STATE_STORE=dynamodb (or memory for local runs) on the function.")
        }
        let caller = try Caller(proving: token, with: tokens)
        let now = clock()
        let records = PasskeyRecords(store: store, recordKey: recordKey, userPoolID: caller.userPoolID, sub: caller.sub)
        let session = Session(settings: settings, records: records, caller: caller, now: now, random: random)
        switch route {
        case .registrationOptions:
            try caller.requireRecentSignIn(now: now, maximumAge: maximumSignInAge)
            try Self.requireEmptyObject(event.body)
            return try session.registrationOptions()
        case .registration:
            try caller.requireRecentSignIn(now: now, maximumAge: maximumSignInAge)
            return try session.register(try Self.jsonObject(event.body, what: "the RegistrationResponseJSON"))
        case .list:
            return try session.list()
        case .rename(let id):
            let body = try Self.jsonObject(event.body, what: #"{"name": "…"}"#)
            guard let name = body["name"] else { throw .badRequest(#"The body needs a "name": {"name": "Work laptop"}."#) }
            return try session.rename(try Self.credentialID(id), to: try Self.validName(name))
        case .delete(let id):
            return try session.delete(try Self.credentialID(id))
        case .methodNotAllowed(let path, let allowed):
            throw .refused(
                status: 405, message: "\(event.method) is not served on \(path); use \(allowed).", headers: ["allow": allowed])
        case .unknown:
            throw .notFound("There is no \(event.method) \(event.rawPath) here. The passkey API serves \(Route.catalog).")
        }
    }

    /// An options body: none, or a JSON object (whose members are ignored).
    private static func requireEmptyObject(_ body: [UInt8]) throws(APIRefusal) {
        guard !body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return }
        _ = try jsonObject(body, what: "{}")
    }

    /// The body as a JSON object.
    static func jsonObject(_ body: [UInt8], what: String) throws(APIRefusal) -> JSONObject {
        guard !body.isEmpty else { throw .badRequest("The request has no body; send \(what).") }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            throw .badRequest("The body is not JSON (\(error)); send \(what).")
        }
        guard let object = value.objectValue else {
            throw .badRequest("The body is a JSON \(value.typeName); send \(what), a JSON object.")
        }
        return object
    }

    /// A credential id from the path: base64url without padding.
    static func credentialID(_ text: String) throws(APIRefusal) -> [UInt8] {
        guard let id = Base64URL.decode(text), !id.isEmpty else {
            throw .badRequest("\"\(text.prefix(100))\" is not a passkey id: ids are base64url without padding, as GET /passkeys lists them.")
        }
        return id
    }

    /// A passkey name: a string of 1 to ``maximumNameLength`` characters once trimmed, without control characters.
    static func validName(_ value: JSONValue) throws(APIRefusal) -> String {
        guard let text = value.stringValue else {
            throw .badRequest("\"name\" is a JSON \(value.typeName); give the passkey's name as a string.")
        }
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !trimmed.isEmpty else { throw .badRequest("\"name\" is empty; give the passkey a name.") }
        guard trimmed.count <= maximumNameLength else {
            throw .badRequest("\"name\" has \(trimmed.count) characters; the most is \(maximumNameLength).")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badRequest("\"name\" holds control characters (such as line breaks); use plain text.")
        }
        return trimmed
    }
}

/// The answer to one request, with a line for the log.
public struct HTTPAPIResult: Sendable {
    /// What the Lambda integration returns to API Gateway.
    public var response: HTTPAPIResponse
    /// The route and status, and the message of a refusal: nothing secret, no user name.
    public var summary: String
    /// API Gateway's id of the request (empty when the event had none).
    public var requestID: String
    /// For a 5xx, what went wrong on this side (the response names only the request).
    public var logDetail: String?
}

/// Who calls: the user Cognito names for the request's bearer token. Nothing else in a request is trusted to say.
struct Caller {
    let sub: String
    let username: String
    let userPoolID: String
    /// When the user signed in, Unix seconds.
    let authTime: Int64

    init(proving token: String, with tokens: (any AccessTokenVerifier)?) throws(APIRefusal) {
        guard let tokens else {
            throw .refused(status: 503, message: "The passkey API cannot check access tokens: the function has no Cognito endpoint (set AWS_REGION or COGNITO_IDP_ENDPOINT).")
        }
        let proven: ProvenAccessToken
        do {
            proven = try tokens.prove(token)
        } catch {
            switch error {
            case .notAuthorized(let reason): throw Self.unauthorized("The access token was refused (\(reason))")
            case .unavailable(let reason): throw .tokenCheckUnavailable(reason)
            }
        }
        sub = proven.sub
        username = proven.username
        userPoolID = proven.userPoolID
        authTime = proven.authTime
    }

    static func unauthorized(_ problem: String) -> APIRefusal {
        .refused(status: 401, message: "\(problem); call with a live Cognito access token in the Authorization header (Bearer TOKEN).")
    }

    /// Refuses a sign-in older than `maximumAge` seconds: adding a passkey needs fresh proof of the user, not only a
    /// token that may have been stolen since.
    func requireRecentSignIn(now: Int64, maximumAge: Int64) throws(APIRefusal) {
        let age = now - authTime
        guard age > maximumAge else { return }
        throw .refused(
            status: 403,
            message: "Adding a passkey needs a recent sign-in: this token's sign-in was \(age) s ago, the most allowed is \(maximumAge) s. Sign in again (refreshed tokens keep the first sign-in's time) and retry.")
    }
}

extension PasskeyRegistrationAPI {
    /// The token of an `Authorization` header, with or without the `Bearer ` prefix (API Gateway's authorizer takes both).
    public static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let token = header.count > 7 && header.prefix(7).lowercased() == "bearer " ? String(header.dropFirst(7)) : header
        let trimmed = String(token.trimmingWhitespace())
        return trimmed.isEmpty ? nil : trimmed
    }
}
