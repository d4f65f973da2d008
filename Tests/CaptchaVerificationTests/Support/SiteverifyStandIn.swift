import CurlHTTP
import Foundation
import LosslessJSON
import ServiceClients
import TestSupport

/// `siteverify_standin.py` run as a child process on a free port of 127.0.0.1: one server that speaks the protocol
/// of each provider, the token choosing the scenario (see the script's header).
final class SiteverifyStandIn {
    private let server: LocalServerProcess
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("siteverify_standin.py").path

    init() throws {
        let port = LocalServerProcess.freePort()
        server = try LocalServerProcess(
            arguments: ["python3", Self.script, String(port), Fixtures.secret, Fixtures.siteKey], port: port,
            startTimeout: .seconds(15))
    }

    func stop() { server.stop() }

    /// Where the stand-in answers as `provider`.
    func endpoint(for provider: CaptchaProvider) -> String {
        "http://127.0.0.1:\(server.port)/\(provider.rawValue)/siteverify"
    }

    /// One POST as the stand-in received it.
    struct ReceivedRequest {
        var path: String
        var contentType: String?
        var clientPort: Int?
        var fields: [String: String]
    }

    /// Every POST received so far, in order.
    func receivedRequests() throws -> [ReceivedRequest] {
        let response = try CurlSession().perform(
            HTTPRequest(method: .get, url: "http://127.0.0.1:\(server.port)/requests", totalTimeout: .seconds(5)))
        return try JSONValue(parsing: response.body).arrayValue?.compactMap { value -> ReceivedRequest? in
            guard let object = value.objectValue else { return nil }
            var fields: [String: String] = [:]
            for (name, field) in object["fields"]?.objectValue ?? JSONObject() {
                fields[name] = field.stringValue
            }
            var clientPort: Int?
            if case .number(let number)? = object["port"] { clientPort = number.intValue }
            return ReceivedRequest(
                path: object["path"]?.stringValue ?? "", contentType: object["contentType"]?.stringValue, clientPort: clientPort,
                fields: fields)
        } ?? []
    }
}
