import TestSupport

/// A real HTTP server on 127.0.0.1 (Python's `http.server`) that answers every POST with one fixed status, header
/// set and body: the error answers AWS gives that moto does not imitate.
final class CannedAnswerServer {
    let server: LocalServerProcess
    var endpoint: String { "http://127.0.0.1:\(server.port)" }

    /// - Parameter headers: `Name: value` lines.
    init(status: Int, headers: [String] = ["Content-Type: application/x-amz-json-1.1"], body: String) throws {
        let port = LocalServerProcess.freePort()
        server = try LocalServerProcess(
            arguments: ["python3", "-c", Self.program, String(port), String(status), body] + headers, port: port)
    }

    deinit { server.stop() }

    private static let program = """
        import http.server, sys
        port, status, body, headers = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].encode(), sys.argv[4:]
        class Canned(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                self.send_response(status)
                for line in headers:
                    name, value = line.split(": ", 1)
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *arguments):
                pass
        http.server.ThreadingHTTPServer(("127.0.0.1", port), Canned).serve_forever()
        """
}
