/// An HTTP request as Signature Version 4 sees it.
public struct SignableRequest: Sendable {
    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// One query parameter, not yet percent-encoded.
    public struct QueryParameter: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    /// The `Host` header's value: the endpoint's host, with `:port` when the port is not the scheme's default.
    public var host: String
    /// The path as it appears in the request line; the canonical form normalizes it and encodes it once more.
    public var path: String
    public var query: [QueryParameter]
    /// Headers to send and sign besides `Host` and the ones the signer adds. A name may repeat.
    public var headers: [Header]
    public var body: [UInt8]

    public init(
        method: String, host: String, path: String, query: [QueryParameter] = [], headers: [Header] = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.host = host
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Name-value pairs, both encoded, sorted by name and then by value, joined with `&`.
    var canonicalQuery: String {
        query.map { (URIEncoding.encode($0.name), URIEncoding.encode($0.value)) }
            .sorted { lhs, rhs in
                lhs.0 == rhs.0 ? lhs.1.utf8.lexicographicallyPrecedes(rhs.1.utf8) : lhs.0.utf8.lexicographicallyPrecedes(rhs.0.utf8)
            }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    var canonicalURI: String {
        URIEncoding.encode(URIEncoding.normalizedPath(path), keepingSlashes: true)
    }
}

/// Headers in canonical form: lower-case names in byte order; each value trimmed with inner runs of spaces
/// collapsed to one, and the values of a repeated name joined with commas in the order they were given.
struct CanonicalHeaders {
    private(set) var entries: [(name: String, value: String)] = []

    init(_ headers: [SignableRequest.Header]) {
        for header in headers {
            let name = header.name.lowercased()
            let value = Self.canonicalValue(header.value)
            if let index = entries.firstIndex(where: { $0.name == name }) {
                entries[index].value += "," + value
            } else {
                entries.append((name, value))
            }
        }
        entries.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// `name:value\n` for each header.
    var block: String { entries.map { "\($0.name):\($0.value)\n" }.joined() }

    /// The names joined with `;`.
    var signedNames: String { entries.map(\.name).joined(separator: ";") }

    private static func canonicalValue(_ value: String) -> String {
        var output: [UInt8] = []
        var pendingSpace = false
        for byte in value.utf8 {
            if byte == 0x20 || byte == 0x09 {
                pendingSpace = !output.isEmpty
            } else {
                if pendingSpace { output.append(0x20) }
                pendingSpace = false
                output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
