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
        let length = name.utf8.count
        return headers.first { $0.name.utf8.count == length && $0.name.utf8.elementsEqual(name.utf8, by: Self.sameASCIILetter) }?.value
    }

    private static func sameASCIILetter(_ a: UInt8, _ b: UInt8) -> Bool {
        a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= UInt8(ascii: "a") && (a | 0x20) <= UInt8(ascii: "z"))
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
