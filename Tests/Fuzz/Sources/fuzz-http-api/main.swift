import ChallengeCrypto
import ChallengeFlows
import CognitoTriggers
import LosslessJSON
import ServiceClients
import WebAuthnCeremonies

/// Random bytes that are the same on every run (0, 1, 2, …), so that an input libFuzzer saved does the same again.
struct CountingRandom: RandomSource {
    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        for index in buffer.indices { buffer[index] = UInt8(truncatingIfNeeded: index) }
    }
}

let settings = PasskeySettings(
    relyingParty: RelyingParty(id: "localhost", name: "Example", allowedOrigins: ["http://localhost:5173"]),
    maxCredentialsPerUser: 3, timeoutMilliseconds: 120_000)
/// The claims of the corpus events' access token (Events/passkey-api/), so that a request gets past the caller check.
let claims = [
    "sub": "11111111-2222-4333-8444-555555555555", "username": "jane", "token_use": "access",
    "iss": "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE",
]
/// A JWT-shaped token with those claims (and a recent sign-in), which the fuzzing's Cognito takes.
let token = "eyJhbGciOiJub25lIn0." + Base64URL.encode(Array(
    #"{"sub":"11111111-2222-4333-8444-555555555555","username":"jane","token_use":"access","iss":"https://cognito-idp.us-east-1.amazonaws.com/us-east-1_EXAMPLE","auth_time":1763799990}"#.utf8)) + ".c2ln"

/// Cognito for the fuzzing: it takes ``token`` and refuses every other one, with the payload checks of the real one.
struct OneLiveToken: AccessTokenVerifier {
    func prove(_ accessToken: String) throws(AccessTokenRefusal) -> ProvenAccessToken {
        guard accessToken == token else { throw .notAuthorized("not the fuzzing's token") }
        return try CognitoAccessTokenCheck.proven(
            claims: try CognitoAccessTokenCheck.payload(of: accessToken), username: "jane",
            sub: "11111111-2222-4333-8444-555555555555")
    }
}

/// A fresh API over an empty memory store, its clock fixed at the corpus's time.
func makeAPI() -> PasskeyRegistrationAPI {
    PasskeyRegistrationAPI(
        settings: settings, store: MemoryStateStore(), recordKey: Array("fuzz-http-api record key".utf8),
        tokens: OneLiveToken(), clock: { 1_763_800_000 }, random: CountingRandom())
}

/// What every answer must be: a status the API uses, the JSON content type, a body that reads back from the
/// integration's JSON as the same value, and a `{"message": …}` on every refusal.
func check(_ result: HTTPAPIResult, _ what: String) {
    let response = result.response
    guard (200...599).contains(response.statusCode) else { fatalError("\(what): status \(response.statusCode)") }
    guard response.headers["content-type"] == "application/json" else { fatalError("\(what): no JSON content type") }
    guard let written = try? JSONValue(parsing: response.serialized()).objectValue,
        let bodyText = written["body"]?.stringValue
    else { fatalError("\(what): the integration response does not read back") }
    if let body = response.body {
        guard (try? JSONValue(parsing: bodyText)) == body else { fatalError("\(what): the body does not read back") }
    } else {
        guard bodyText.isEmpty, response.statusCode == 204 else { fatalError("\(what): a \(response.statusCode) without a body") }
    }
    if response.statusCode >= 400, response.message == nil { fatalError("\(what): a \(response.statusCode) without a message") }
}

/// One libFuzzer input, fed two ways:
/// 1. as the Lambda event: JSON → payload 2.0 (`HTTPAPIEvent(json:)`) → route → body, through
///    `PasskeyRegistrationAPI.handle(_:)`; an event that does not read must get a 400;
/// 2. as the body of each route that reads one, for a caller the authorizer accepted: the options, a registration
///    (after options, so that a ceremony is pending) and a rename.
/// Errors are answers; nothing may crash, leak or hang, and every answer must pass ``check(_:_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPAPI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    if let json = try? JSONValue(parsing: bytes) {
        _ = HTTPAPIEvent.isHTTPAPIEvent(json)
        let readable = (try? HTTPAPIEvent(json: json)) != nil
        let result = makeAPI().handle(json)
        check(result, "the event")
        if !readable, result.response.statusCode != 400 { fatalError("an unreadable event got \(result.response.statusCode)") }
    }

    let api = makeAPI()
    func request(_ method: String, _ path: String, body: [UInt8]) -> HTTPAPIResult {
        api.handle(HTTPAPIEvent(
            routeKey: "\(method) \(path)", method: method, rawPath: path, headers: ["authorization": "Bearer \(token)"], body: body,
            requestID: "fuzz", claims: claims))
    }
    check(request("POST", "/passkeys/registration/options", body: bytes), "the options body")
    check(request("POST", "/passkeys/registration/options", body: []), "an options request")
    check(request("POST", "/passkeys/registration", body: bytes), "the registration body")
    check(request("PATCH", "/passkeys/AQID", body: bytes), "the rename body")
    return 0
}
