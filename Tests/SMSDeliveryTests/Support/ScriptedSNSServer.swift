import CurlHTTP
import LosslessJSON
import TestSupport

/// A small HTTP/1.1 server (Python's http.server, as a child process) that answers each `POST` with the next
/// scripted behaviour, the last one repeating. A behaviour is `STATUS[:ErrorCode][@delayMilliseconds]`:
/// `503`, `400:Throttling`, `200@5000`. Success is a `PublishResponse`; errors are SNS's `ErrorResponse` XML whose
/// message echoes the request body. `GET /requests` lists the client port of each POST so far.
final class ScriptedSNSServer {
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
        from xml.sax.saxutils import escape
        port, behaviours, seen = int(sys.argv[1]), sys.argv[2:], []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, body, content_type="text/xml"):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.reply(200, json.dumps(seen), "application/json")

            def do_POST(self):
                request = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                behaviour = behaviours[min(len(seen), len(behaviours) - 1)]
                seen.append(self.client_address[1])
                behaviour, _, delay = behaviour.partition("@")
                status, _, code = behaviour.partition(":")
                time.sleep(int(delay or "0") / 1000)
                if status == "200":
                    self.reply(200, '<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult>'
                        '<MessageId>scripted-%d</MessageId></PublishResult></PublishResponse>' % len(seen))
                else:
                    kind = "Receiver" if int(status) >= 500 else "Sender"
                    self.reply(int(status), '<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error>'
                        '<Type>%s</Type><Code>%s</Code><Message>scripted failure &amp; echo: %s</Message></Error>'
                        '<RequestId>r-1</RequestId></ErrorResponse>' % (kind, code or "InternalError", escape(request)))

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
