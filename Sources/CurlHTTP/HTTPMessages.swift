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
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first header with this name, compared without regard to case.
    public func header(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { wanted in
            headers.first { header in
                var candidate = header.name
                return candidate.withUTF8 { Self.equalIgnoringASCIICase($0, wanted) }
            }?.value
        }
    }

    private static func equalIgnoringASCIICase(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
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
