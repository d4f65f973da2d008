import ServiceClients

/// Why a request got no success: an answer for the client, and for server-side failures a detail for the log only.
enum APIRefusal: Error {
    /// The request cannot be served as sent: a 4xx with a message saying what to change.
    case refused(status: Int, message: String, headers: [String: String] = [:])
    /// The state store failed.
    case storeFailure(StateStoreError)
    /// Cognito could not be asked whether the access token is live.
    case tokenCheckUnavailable(String)
    /// The caller's records changed under every attempt to change them.
    case busy
    /// Something that should not happen, such as a record the API cannot read.
    case internalError(String)

    static func badRequest(_ message: String) -> APIRefusal { .refused(status: 400, message: message) }
    static func notFound(_ message: String) -> APIRefusal { .refused(status: 404, message: message) }
    static func conflict(_ message: String) -> APIRefusal { .refused(status: 409, message: message) }

    /// The answer; server-side failures name only the request, whose log line holds the detail.
    func response(requestID: String) -> HTTPAPIResponse {
        let reference = requestID.isEmpty ? "" : " (request \(requestID))"
        return switch self {
        case .refused(let status, let message, let headers): .message(status, message, headers: headers)
        case .storeFailure: .message(503, "The passkey store is unavailable right now; try again in a moment\(reference).")
        case .tokenCheckUnavailable: .message(503, "Your access token could not be checked right now; try again in a moment\(reference).")
        case .busy: .message(503, "Your passkeys were being changed at the same time; try again\(reference).")
        case .internalError: .message(500, "The passkey API failed; the log holds the detail\(reference).")
        }
    }

    /// What the log says about a server-side failure; nil for a client's mistake.
    var logDetail: String? {
        switch self {
        case .refused: nil
        case .storeFailure(let error): "\(error)"
        case .tokenCheckUnavailable(let reason): reason
        case .busy: "the passkey records changed under \(PasskeyRecords.attempts) conditional writes in a row"
        case .internalError(let detail): detail
        }
    }
}
