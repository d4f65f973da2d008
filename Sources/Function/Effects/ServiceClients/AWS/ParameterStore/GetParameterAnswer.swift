import LosslessJSON

/// The parts of a `GetParameter` answer the client uses: `{"Parameter": {"Type": "SecureString", "Value": …}}`.
struct GetParameterAnswer {
    let type: String?
    let value: String
    private let parameter: String

    /// Reads the answer for `parameter`; a failure names the parameter and what was missing, never the body.
    init(parameter: String, body: [UInt8]) throws(ParameterStoreError) {
        self.parameter = parameter
        let fields: JSONObject?
        do {
            fields = try JSONValue(parsing: body).objectValue?["Parameter"]?.objectValue
        } catch {
            throw .malformed(parameter: parameter, reason: "the answer is not JSON")
        }
        guard let fields else { throw .malformed(parameter: parameter, reason: "the answer has no \"Parameter\" object") }
        guard let value = fields["Value"]?.stringValue else {
            throw .malformed(parameter: parameter, reason: "the answer has no string \"Parameter.Value\"")
        }
        self.value = value
        type = fields["Type"]?.stringValue
    }

    /// The value, if the parameter is a `SecureString`: a secret kept as a plain `String` is readable without KMS.
    var secureValue: String {
        get throws(ParameterStoreError) {
            guard type == "SecureString" else { throw .notSecureString(parameter: parameter, type: type ?? "(none)") }
            return value
        }
    }
}
