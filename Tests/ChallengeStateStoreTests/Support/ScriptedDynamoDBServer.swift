import CurlHTTP
import LosslessJSON
import TestSupport

/// A small HTTP/1.1 server (Python's http.server, as a child process) that answers each `POST` with the next
/// scripted behaviour, the last one repeating. A behaviour is `STATUS[:ErrorType][@delayMilliseconds]`: `500`,
/// `400:AccessDeniedException`, `200@3000`. Error bodies are DynamoDB's `{"__type": ..., "message": ...}`; a 200
/// answers `{}`. `GET /requests` lists the client port of each POST so far, which shows whether a connection was reused.
final class ScriptedDynamoDBServer {
    private let server: LocalServerProcess
    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    init(_ behaviours: [String]) throws {
        let port = LocalServerProcess.freePort()
        server = try LocalServerProcess(
            arguments: ["python3", "-c", Self.script, String(port)] + behaviours, port: port, startTimeout: .seconds(15))
    }

    func stop() { server.stop() }

    /// The client port of every POST received, in order.
    func requestClientPorts() throws -> [Int] {
        let response = try CurlSession().perform(HTTPRequest(method: .get, url: endpoint + "/requests", totalTimeout: .seconds(5)))
        return try JSONValue(parsing: response.body).arrayValue?.compactMap { value -> Int? in
            if case .number(let number) = value { return number.intValue }
            return nil
        } ?? []
    }

    private static let script = #"""
        import http.server, json, sys, time
        port, behaviours, seen = int(sys.argv[1]), sys.argv[2:], []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body):
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/x-amz-json-1.0")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.reply(200, seen)

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                behaviour = behaviours[min(len(seen), len(behaviours) - 1)]
                seen.append(self.client_address[1])
                behaviour, _, delay = behaviour.partition("@")
                status, _, error_type = behaviour.partition(":")
                time.sleep(int(delay or "0") / 1000)
                if status == "200":
                    self.reply(200, {})
                else:
                    body = {"message": "scripted failure"}
                    if error_type:
                        body["__type"] = "com.amazonaws.dynamodb.v20120810#" + error_type
                    self.reply(int(status), body)

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
