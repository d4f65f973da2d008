/// One header line of a request or response.
public struct HTTPHeader: Sendable, Equatable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A request for ``CurlSession``.
public struct HTTPRequest: Sendable {
    public enum Method: String, Sendable {
        case get = "GET"
        case post = "POST"
    }

    public var method: Method
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]
    /// How long to wait for the TCP (and TLS) connection.
    public var connectTimeout: Duration
    /// How long the whole transfer may take; nil waits for ever (the Runtime API's `next` call needs that).
    public var totalTimeout: Duration?
    /// Polled while the transfer runs (several times a second while it waits); returning true abandons the transfer,
    /// which then throws a ``CurlError`` whose ``CurlError/wasAborted`` is true. Lets a transfer without a timeout end.
    public var abortCheck: (@Sendable () -> Bool)?

    public init(
        method: Method, url: String, headers: [HTTPHeader] = [], body: [UInt8] = [],
        connectTimeout: Duration = .seconds(1), totalTimeout: Duration? = nil,
        abortCheck: (@Sendable () -> Bool)? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.abortCheck = abortCheck
    }
}

/// What the server answered.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// The header lines, parsed only when asked for: a response from ``CurlSession`` keeps them as the bytes the
    /// server sent, and ``header(_:)`` finds a value in those bytes without making strings of the others.
    public var headers: [HTTPHeader] {
        get {
            switch storage {
            case .parsed(let headers): headers
            case .raw(let lines): HeaderLines.parse(lines)
            }
        }
        set { storage = .parsed(newValue) }
    }
    public var body: [UInt8]
    private var storage: HeaderStorage

    private enum HeaderStorage: Sendable {
        case parsed([HTTPHeader])
        /// `Name: value` lines, each ending in a line break, as they arrived.
        case raw([UInt8])
    }

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.storage = .parsed(headers)
        self.body = body
    }

    /// A response whose header lines are still the bytes the server sent.
    init(status: Int, headerLines: [UInt8], body: [UInt8]) {
        self.status = status
        self.storage = .raw(headerLines)
        self.body = body
    }

    /// The first header with this name, compared without regard to case.
    public func header(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            switch storage {
            case .parsed(let headers):
                return headers.first { header in
                    var candidate = header.name
                    return candidate.withUTF8 { HeaderLines.equalIgnoringASCIICase($0, wanted) }
                }?.value
            case .raw(let lines):
                return lines.withUnsafeBufferPointer { bytes in
                    var found: String?
                    HeaderLines.forEach(in: bytes) { name, value in
                        guard HeaderLines.equalIgnoringASCIICase(name, wanted) else { return true }
                        found = String(decoding: value, as: UTF8.self)
                        return false
                    }
                    return found
                }
            }
        }
    }
}

/// Header lines as libcurl hands them over: `Name: value` and a line break, one after another.
enum HeaderLines {
    /// Every line's name and value (trimmed of blanks and the line break), in order; lines without a colon are
    /// skipped. `body` returns false to stop.
    static func forEach(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            let next = lineEnd + 1
            var colon = lineStart
            while colon < lineEnd, bytes[colon] != UInt8(ascii: ":") { colon += 1 }
            if colon < lineEnd {
                var valueStart = colon + 1
                while valueStart < lineEnd, bytes[valueStart] == 0x20 || bytes[valueStart] == 0x09 { valueStart += 1 }
                var valueEnd = lineEnd
                while valueEnd > valueStart, bytes[valueEnd - 1] == 0x0D || bytes[valueEnd - 1] == 0x20 { valueEnd -= 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[lineStart..<colon])
                let value = UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd])
                guard body(name, value) else { return }
            }
            lineStart = next
        }
    }

    static func parse(_ lines: [UInt8]) -> [HTTPHeader] {
        lines.withUnsafeBufferPointer { bytes in
            var headers: [HTTPHeader] = []
            forEach(in: bytes) { name, value in
                headers.append(HTTPHeader(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self)))
                return true
            }
            return headers
        }
    }

    static func equalIgnoringASCIICase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        guard left.count == right.count else { return false }
        for index in 0..<left.count {
            let a = left[index], b = right[index]
            guard a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
            else { return false }
        }
        return true
    }
}

/// A transfer that did not produce an HTTP response.
public struct CurlError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens at the address, or the host cannot be resolved.
        case cannotConnect
        /// The connect or total timeout passed.
        case timedOut
        /// Anything else libcurl reports (TLS, a reset connection, a bad URL, ...).
        case other
    }

    public let kind: Kind
    /// libcurl's `CURLcode`.
    public let code: Int32
    public let message: String
    /// True when the request's ``HTTPRequest/abortCheck`` ended the transfer.
    public let wasAborted: Bool

    public init(kind: Kind, code: Int32, message: String, wasAborted: Bool = false) {
        self.kind = kind
        self.code = code
        self.message = message
        self.wasAborted = wasAborted
    }

    public var description: String { "HTTP transfer failed (curl error \(code)): \(message)" }
}
