#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Platform

/// An HTTP/1.1 front on 127.0.0.1 for a local server (moto's DynamoDB) that counts what its client does: the
/// connections it opens and the requests it sends over them (its round trips), by the operation their `X-Amz-Target`
/// names.
///
/// moto's server (werkzeug) closes every connection after its response (`Connection: close`), which would make any
/// client open one per request. DynamoDB keeps connections open, so this front does too: each request goes to moto
/// on a connection of its own, and its response comes back without moto's `Connection` header, on the connection
/// the client keeps. Requests and responses are otherwise passed on unchanged. One thread per client connection.
final class CountingProxy: Sendable {
    /// What went through since the proxy started.
    struct Counts: Sendable {
        var connections = 0
        var requests = 0
        /// Requests by operation (`PutItem`, from `X-Amz-Target: DynamoDB_20120810.PutItem`).
        var operations: [String: Int] = [:]
    }

    let port: UInt16
    private let upstreamPort: UInt16
    private let listener: Int32
    private let state = PosixLock(Counts())

    /// A front for `upstreamPort` on 127.0.0.1, listening on a free port; nil when no socket can be had.
    init?(upstreamPort: UInt16) {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { return nil }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound else { close(listener); return nil }
        self.listener = listener
        self.upstreamPort = upstreamPort
        port = UInt16(bigEndian: address.sin_port)
        Thread.detachNewThread { [self] in acceptConnections() }
    }

    var counts: Counts { state.withLock { $0 } }

    /// Stops accepting; connections already open end with their clients.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptConnections() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                close(listener)
                return
            }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            Self.noDelay(client)
            state.withLock { $0.connections += 1 }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    /// Passes the client's requests on one by one until it closes its connection or moto cannot be reached.
    private func serve(_ client: Int32) {
        defer { close(client) }
        var requests = HTTPReader(client)
        while let request = requests.nextMessage() {
            state.withLock {
                $0.requests += 1
                $0.operations[request.operation, default: 0] += 1
            }
            guard let server = Self.connect(to: upstreamPort) else { return }
            defer { close(server) }
            guard Self.send(request.bytes, to: server) else { return }
            var responses = HTTPReader(server)
            guard let response = responses.nextMessage(untilClosedWithoutLength: true) else { return }
            guard Self.send(response.keptAlive, to: client) else { return }
        }
    }

    private static func send(_ bytes: [UInt8], to socket: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            sent += written
        }
        return true
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func connect(to port: UInt16) -> Int32? {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard server >= 0 else { return nil }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { close(server); return nil }
        noDelay(server)
        return server
    }

    /// Small writes go out at once, as they would without the relay (no Nagle delay added by it).
    private static func noDelay(_ socket: Int32) {
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// One HTTP/1.1 message as it came: its header block and body.
private struct HTTPMessage {
    var header: [UInt8]
    var body: [UInt8]

    var bytes: [UInt8] { header + body }

    /// The header's lines after the start line, as (lowercased name, value).
    var fields: [(String, String)] {
        String(decoding: header, as: UTF8.self).split(separator: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// `X-Amz-Target` after its last dot (`PutItem`), else the request's method.
    var operation: String {
        if let target = fields.first(where: { $0.0 == "x-amz-target" })?.1 {
            return String(target.split(separator: ".").last ?? Substring(target))
        }
        return String(decoding: header.prefix { $0 != 32 }, as: UTF8.self)
    }

    /// The response without its `Connection` field, with a `Content-Length` when it had none, so that the client may
    /// keep its connection.
    var keptAlive: [UInt8] {
        let text = String(decoding: header, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).map(String.init)
        lines.removeAll { $0.lowercased().hasPrefix("connection:") }
        if !fields.contains(where: { $0.0 == "content-length" || $0.0 == "transfer-encoding" }) {
            lines.append("Content-Length: \(body.count)")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
    }
}

/// Reads HTTP/1.1 messages from a socket: a header block up to its blank line, then as many body bytes as its
/// `Content-Length` says (the state store's client always sends one; moto's responses too).
private struct HTTPReader {
    let socket: Int32
    private var buffered: [UInt8] = []

    init(_ socket: Int32) { self.socket = socket }

    /// The next message; nil when the peer closes or fails first. With `untilClosedWithoutLength`, a message without
    /// a `Content-Length` ends where the peer closes the connection (a response); else its body is empty.
    mutating func nextMessage(untilClosedWithoutLength: Bool = false) -> HTTPMessage? {
        var end: Int?
        while true {
            end = headerEnd()
            if end != nil { break }
            guard fill() else { return nil }
        }
        var message = HTTPMessage(header: Array(buffered[..<end!]), body: [])
        buffered.removeFirst(end!)
        if let length = message.fields.first(where: { $0.0 == "content-length" }).flatMap({ Int($0.1) }) {
            while buffered.count < length { guard fill() else { return nil } }
            message.body = Array(buffered[..<length])
            buffered.removeFirst(length)
        } else if untilClosedWithoutLength {
            while fill() {}
            message.body = buffered
            buffered = []
        }
        return message
    }

    /// Where the header block ends (after its CR LF CR LF), if it is all in the buffer.
    private func headerEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for index in 3..<buffered.count
        where buffered[index] == 10 && buffered[index - 1] == 13 && buffered[index - 2] == 10 && buffered[index - 3] == 13 {
            return index + 1
        }
        return nil
    }

    /// Reads what the socket has; false at its end or on an error.
    private mutating func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            buffered += chunk[..<count]
            return true
        }
    }
}
