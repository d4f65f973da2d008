import LosslessJSON

/// The fields of a `siteverify` answer that the verdict depends on, read from its JSON body.
struct SiteverifyAnswer: Sendable {
    var success: Bool
    var errorCodes: [String]
    var hostname: String?
    var action: String?
    var score: Double?
    var challengeTimestamp: String?

    /// Why a body is not a `siteverify` answer; the reason names fields, never their values.
    struct Malformed: Error {
        let reason: String
    }

    init(success: Bool, errorCodes: [String] = [], hostname: String? = nil, action: String? = nil, score: Double? = nil,
         challengeTimestamp: String? = nil) {
        self.success = success
        self.errorCodes = errorCodes
        self.hostname = hostname
        self.action = action
        self.score = score
        self.challengeTimestamp = challengeTimestamp
    }

    /// Reads a JSON object; an absent or `null` optional field is nil, a field of the wrong type is malformed.
    init(parsing body: [UInt8]) throws(Malformed) {
        guard let object = (try? JSONValue(parsing: body))?.objectValue else {
            throw Malformed(reason: "the \(body.count)-byte body is not a JSON object")
        }
        guard let success = object["success"]?.boolValue else {
            throw Malformed(reason: "\"success\" is missing or not true or false")
        }
        func text(_ name: String) throws(Malformed) -> String? {
            guard let value = object[name], !value.isNull else { return nil }
            guard let text = value.stringValue else { throw Malformed(reason: "\"\(name)\" is not a string") }
            return text
        }
        var codes: [String] = []
        if let value = object["error-codes"], !value.isNull {
            guard let array = value.arrayValue else { throw Malformed(reason: "\"error-codes\" is not an array") }
            for code in array {
                guard let code = code.stringValue else { throw Malformed(reason: "\"error-codes\" holds a value that is not a string") }
                codes.append(code)
            }
        }
        var score: Double?
        if let value = object["score"], !value.isNull {
            guard case .number(let number) = value, let double = number.doubleValue else {
                throw Malformed(reason: "\"score\" is not a number")
            }
            score = double
        }
        self.init(
            success: success, errorCodes: codes, hostname: try text("hostname"), action: try text("action"), score: score,
            challengeTimestamp: try text("challenge_ts"))
    }
}
