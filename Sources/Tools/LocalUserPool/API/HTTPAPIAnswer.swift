import Foundation
import Invoker
import LosslessJSON

/// One answer of the local HTTP API: the function's payload 2.0 response, or API Gateway's own `{"message": …}`.
public struct HTTPAPIAnswer: LocalHTTPAnswer {
    public let status: Int
    public let headers: [(String, String)]
    public let body: [UInt8]

    init(status: Int, headers: [(String, String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// API Gateway's answer of its own: `status` with `{"message": text}`.
    static func message(_ status: Int, _ text: String) -> HTTPAPIAnswer {
        HTTPAPIAnswer(
            status: status, headers: [("Content-Type", "application/json")],
            body: JSONValue.object(JSONObject([("message", .string(text))])).serialized())
    }

    /// The function's response read as API Gateway reads payload 2.0: an object with `statusCode` gives the status,
    /// `headers`, and `body` (base64 when `isBase64Encoded`); any other JSON is a 200 whose body is that JSON; what
    /// is not JSON is a 500.
    init(functionResponse bytes: [UInt8]) {
        guard let value = try? JSONValue(parsing: bytes) else {
            self = .message(500, "Internal Server Error")
            return
        }
        guard let object = value.objectValue, case .number(let code)? = object["statusCode"], let status = code.intValue else {
            self.init(status: 200, headers: [("Content-Type", "application/json")], body: bytes)
            return
        }
        var headers: [(String, String)] = []
        for (name, header) in object["headers"]?.objectValue ?? JSONObject() {
            if let text = header.stringValue { headers.append((name, text)) }
        }
        let text = object["body"]?.stringValue ?? ""
        let body: [UInt8] = if object["isBase64Encoded"]?.boolValue == true {
            Data(base64Encoded: text).map(Array.init) ?? []
        } else {
            Array(text.utf8)
        }
        self.init(status: status, headers: headers, body: body)
    }

    /// This answer with the CORS headers `policy` gives a request from `origin`.
    func withCrossOriginHeaders(origin: String?, policy: CrossOriginPolicy) -> HTTPAPIAnswer {
        HTTPAPIAnswer(status: status, headers: headers + policy.headers(origin: origin), body: body)
    }
}
