/// How the tests start moto, the AWS stand-in, on 127.0.0.1.
///
/// DynamoDB decides each conditional write atomically. moto's threaded server does not: two conditional `PutItem`s
/// that arrive together can both pass their condition. Tests that race several writers (bootstraps on one table)
/// would then fail for moto's sake, so moto answers one request at a time here (connections are still accepted in
/// parallel). Its request log is off: a line per request would fill a pipe nobody reads.
public enum MotoServer {
    /// The command that serves moto's whole API on `port`.
    public static func arguments(port: UInt16) -> [String] {
        ["python3", "-c", script, "127.0.0.1", String(port)]
    }

    private static let script = """
        import logging, sys, threading
        from werkzeug.serving import run_simple
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        app = DomainDispatcherApplication(create_backend_app)
        one_at_a_time = threading.Lock()
        def serialized(environ, start_response):
            with one_at_a_time:
                return list(app(environ, start_response))
        run_simple(sys.argv[1], int(sys.argv[2]), serialized, threaded=True)
        """
}
