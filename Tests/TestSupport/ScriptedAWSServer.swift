import CurlHTTP
import LosslessJSON

/// A small HTTP/1.1 server (Python's http.server, as a child process) that answers each `POST` the way an AWS service
/// would, following a script: each request takes the next behaviour, the last one repeating.
///
/// A behaviour is `STATUS[:ErrorCode][@delayMilliseconds]`: `503`, `429:TooManyRequestsException`, `200@5000`.
/// The error's wording follows the service's protocol (its ``Dialect``); SES and SNS errors echo the request body in
/// their message (which is how a client's redaction of what it sent is tested), DynamoDB's say only "scripted failure".
/// `GET /requests` lists the client port of each POST so far, which shows whether a connection was reused.
public final class ScriptedAWSServer {
    /// The protocol a service answers in.
    public enum Dialect: String, Sendable {
        /// SES v2 (REST JSON): success `{"MessageId": ...}`; the error code in `x-amzn-ErrorType`.
        case ses
        /// SNS (query protocol): a `PublishResponse`, or an `ErrorResponse` whose type is `Receiver` for 5xx.
        case sns
        /// DynamoDB (JSON 1.0): success `{}`; errors `{"__type": "com.amazonaws.dynamodb.v20120810#Code", ...}`.
        case dynamoDB
    }

    private let server: LocalServerProcess
    public var port: UInt16 { server.port }
    public var endpoint: String { "http://127.0.0.1:\(port)" }

    public init(_ dialect: Dialect, _ behaviours: [String]) throws {
        let port = LocalServerProcess.freePort()
        server = try LocalServerProcess(
            arguments: ["python3", "-c", Self.script, String(port), dialect.rawValue] + behaviours, port: port,
            startTimeout: .seconds(15))
    }

    public func stop() { server.stop() }

    /// The client port of every POST received, in order.
    public func requestClientPorts() throws -> [Int] {
        let response = try CurlSession().perform(HTTPRequest(method: .get, url: endpoint + "/requests", totalTimeout: .seconds(5)))
        return try JSONValue(parsing: response.body).arrayValue?.compactMap { value -> Int? in
            if case .number(let number) = value { return number.intValue }
            return nil
        } ?? []
    }

    private static let script = #"""
        import http.server, json, sys, time
        from xml.sax.saxutils import escape
        port, dialect, behaviours, seen = int(sys.argv[1]), sys.argv[2], sys.argv[3:], []
        SNS = "http://sns.amazonaws.com/doc/2010-03-31/"

        def success(count):
            if dialect == "sns":
                return ("<PublishResponse xmlns=\"%s\"><PublishResult><MessageId>scripted-%d</MessageId>"
                        "</PublishResult></PublishResponse>" % (SNS, count)), "text/xml", []
            if dialect == "dynamoDB":
                return "{}", "application/x-amz-json-1.0", []
            return json.dumps({"MessageId": "scripted-%d" % count}), "application/json", []

        def failure(status, code, request):
            message = "scripted failure for request " + request
            if dialect == "sns":
                kind = "Receiver" if status >= 500 else "Sender"
                return ("<ErrorResponse xmlns=\"%s\"><Error><Type>%s</Type><Code>%s</Code><Message>%s</Message>"
                        "</Error><RequestId>r-1</RequestId></ErrorResponse>"
                        % (SNS, kind, code or "InternalError", escape(message))), "text/xml", []
            if dialect == "dynamoDB":
                body = {"message": "scripted failure"}
                if code:
                    body["__type"] = "com.amazonaws.dynamodb.v20120810#" + code
                return json.dumps(body), "application/x-amz-json-1.0", []
            headers = [("x-amzn-ErrorType", code)] if code else []
            return json.dumps({"message": message}), "application/json", headers

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def reply(self, status, answer):
                body, content_type, headers = answer
                data = body.encode()
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.reply(200, (json.dumps(seen), "application/json", []))

            def do_POST(self):
                request = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                behaviour = behaviours[min(len(seen), len(behaviours) - 1)]
                seen.append(self.client_address[1])
                behaviour, _, delay = behaviour.partition("@")
                status, _, code = behaviour.partition(":")
                time.sleep(int(delay or "0") / 1000)
                if status == "200":
                    self.reply(200, success(len(seen)))
                else:
                    self.reply(int(status), failure(int(status), code, request))

        http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """#
}
