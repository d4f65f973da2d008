#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// server sent, and ``header(_:)`` finds a value there without making strings of the others.
    public var headers: [HTTPHeader] {
        get {
            switch storage {
            case .parsed(let headers): headers
            case .raw(let lines): lines.headers
            }
        }
        set { storage = .parsed(newValue) }
    }
    public var body: [UInt8]
    private var storage: HeaderStorage

    private enum HeaderStorage: Sendable {
        case parsed([HTTPHeader])
        case raw(HeaderLines)
    }

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.storage = .parsed(headers)
        self.body = body
    }

    /// A response whose header lines are still the bytes the server sent.
    init(status: Int, headerLines: HeaderLines, body: [UInt8]) {
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
                headers.first { header in
                    var candidate = header.name
                    return candidate.withUTF8 { HeaderLines.equalIgnoringASCIICase($0, wanted) }
                }?.value
            case .raw(let lines):
                lines.value(named: wanted)
            }
        }
    }
}

/// Header lines as libcurl hands them over, one at a time: their bytes one after another, and where each name and
/// value lies in them.
struct HeaderLines: Sendable {
    /// Where one `Name: value` line's name and value lie in `bytes`.
    private struct Field: Sendable {
        let name: Range<Int>
        let value: Range<Int>
    }

    private var bytes: [UInt8] = []
    private var fields: [Field] = []

    /// Room for a usual header block, made at once. A session is made during a function's init, so the storage's type
    /// information is built then too, not while the first response's headers arrive (Swift builds the metadata of an
    /// array's storage when the first one is allocated: about 170 k instructions here).
    init() {
        bytes.reserveCapacity(1024)
        fields.reserveCapacity(16)
    }

    /// Takes one line of a header block as libcurl hands it over, line break included: a status line (after a
    /// 100 Continue or a redirect) drops the headers of the earlier response, `Name: value` is kept, and anything
    /// else (the blank line that ends the block) is skipped.
    mutating func receive(line: UnsafeBufferPointer<UInt8>) {
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/")
        {
            removeAll()
            return
        }
        guard let colon = line.index(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        while valueStart < line.count, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        var valueEnd = line.count
        while valueEnd > valueStart, line[valueEnd - 1] == 0x0D || line[valueEnd - 1] == 0x0A || line[valueEnd - 1] == 0x20 {
            valueEnd -= 1
        }
        let offset = bytes.count
        bytes.append(contentsOf: line)
        fields.append(Field(name: offset..<offset + colon, value: offset + valueStart..<offset + valueEnd))
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
    }

    /// The value of the first field with this name, compared without regard to case.
    func value(named wanted: UnsafeBufferPointer<UInt8>) -> String? {
        bytes.withUnsafeBufferPointer { bytes in
            for field in fields where field.name.count == wanted.count {
                if Self.equalIgnoringASCIICase(UnsafeBufferPointer(rebasing: bytes[field.name]), wanted) {
                    return String(decoding: UnsafeBufferPointer(rebasing: bytes[field.value]), as: UTF8.self)
                }
            }
            return nil
        }
    }

    var headers: [HTTPHeader] {
        fields.map { field in
            HTTPHeader(String(decoding: bytes[field.name], as: UTF8.self), String(decoding: bytes[field.value], as: UTF8.self))
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

extension UnsafeBufferPointer<UInt8> {
    /// The index of the first `byte` at or after `start`, found with the C library's `memchr`, which reads many bytes
    /// at a time where a loop in Swift takes them one by one.
    func index(of byte: UInt8, from start: Int = 0) -> Int? {
        guard start < count, let base = baseAddress, let found = memchr(base + start, Int32(byte), count - start) else {
            return nil
        }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
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
