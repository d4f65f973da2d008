import COpenSSL

/// SHA-256 on OpenSSL's plain SHA-256 functions, which need no allocation and cannot fail.
public enum SHA256 {
    public static let byteCount = 32

    // The generic entry points are inlined into their callers, which then hand over an array's bytes directly;
    // unspecialized, every call looked the collection's types up at run time.
    @inlinable
    public static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        withContiguousBytes(message) { hash(contiguous: $0) }
    }

    @usableFromInline
    static func hash(contiguous bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        digest { digest in
            var context = SHA256_CTX()
            SHA256_Init(&context)
            SHA256_Update(&context, bytes.baseAddress, bytes.count)
            SHA256_Final(digest, &context)
        }
    }

    /// The 32 bytes `write` puts at its pointer, as an array. They are written on the stack and copied once:
    /// `[UInt8](unsafeUninitializedCapacity:)` allocates through the standard library's unspecialized code, which
    /// looks the array storage's type up at run time (a few hundred instructions per digest).
    static func digest(_ write: (UnsafeMutablePointer<UInt8>) -> Void) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount) { digest in
            write(digest.baseAddress!)
            return Array(digest)
        }
    }

    public static func hash(_ message: String) -> [UInt8] {
        var message = message
        return message.withUTF8 { hash(contiguous: $0) }
    }
}

/// HMAC-SHA256 (RFC 2104) on OpenSSL's SHA-256.
public enum HMACSHA256 {
    @inlinable
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        Key(key).authenticationCode(for: message)
    }

    @inlinable
    public static func authenticationCode(key: some Collection<UInt8>, message: String) -> [UInt8] {
        Key(key).authenticationCode(for: message)
    }

    /// A key made ready once for many MACs: its inner and outer pads are hashed when it is made, and each MAC goes
    /// on from copies of those two SHA-256 states, so a MAC of a short message costs three blocks of SHA-256 and
    /// no allocation but its result.
    ///
    /// OpenSSL 3's `EVP_MAC` looks HMAC and SHA-256 up by name (about a million instructions the first time in a
    /// process) and restarts a context through its provider on every MAC; its plain SHA-256 functions do neither.
    /// The states are derived from the key, so they are as secret as the key.
    public struct Key: Sendable {
        private var inner = SHA256_CTX()
        private var outer = SHA256_CTX()

        /// `key` made ready; a key longer than SHA-256's 64-byte block is hashed first, as RFC 2104 says.
        @inlinable
        public init(_ key: some Collection<UInt8>) {
            self = withContiguousBytes(key) { Key(contiguous: $0) }
        }

        @usableFromInline
        init(contiguous key: UnsafeBufferPointer<UInt8>) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.blockSize) { block in
                block.initialize(repeating: 0)
                defer { block.initialize(repeating: 0) }
                if key.count > Self.blockSize {
                    _ = block.initialize(fromContentsOf: SHA256.hash(contiguous: key))
                } else {
                    _ = block.initialize(fromContentsOf: key)
                }
                inner = Self.state(absorbing: block, maskedWith: 0x36)
                outer = Self.state(absorbing: block, maskedWith: 0x5C)
            }
        }

        /// The MAC of `message` under this key.
        @inlinable
        public func authenticationCode(for message: some Collection<UInt8>) -> [UInt8] {
            withContiguousBytes(message) { authenticationCode(contiguous: $0) }
        }

        /// The MAC of `message`'s UTF-8 under this key.
        @inlinable
        public func authenticationCode(for message: String) -> [UInt8] {
            var message = message
            return message.withUTF8 { authenticationCode(contiguous: $0) }
        }

        @usableFromInline
        func authenticationCode(contiguous message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
            SHA256.digest { code in
                var context = inner
                SHA256_Update(&context, message.baseAddress, message.count)
                SHA256_Final(code, &context)
                context = outer
                SHA256_Update(&context, code, SHA256.byteCount)
                SHA256_Final(code, &context)
            }
        }

        private static let blockSize = 64

        /// A SHA-256 state that has hashed the block of the key masked with `pad` (the inner or the outer pad).
        private static func state(absorbing block: UnsafeMutableBufferPointer<UInt8>, maskedWith pad: UInt8) -> SHA256_CTX {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: blockSize) { padded in
                for index in 0..<blockSize { padded.initializeElement(at: index, to: block[index] ^ pad) }
                defer { padded.initialize(repeating: 0) }
                var context = SHA256_CTX()
                SHA256_Init(&context)
                SHA256_Update(&context, padded.baseAddress, blockSize)
                return context
            }
        }
    }
}

/// Compares two byte strings in time that depends only on their length (`CRYPTO_memcmp`),
/// so that a wrong answer reveals nothing about how close it was.
public func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    guard lhs.count == rhs.count else { return false }
    guard !lhs.isEmpty else { return true }
    return lhs.withUnsafeBytes { left in
        rhs.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0 }
    }
}

/// Runs `body` with the collection's bytes contiguous in memory, copying only when they are not already.
@inlinable
func withContiguousBytes<Result>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
}

/// HMAC-SHA1 on OpenSSL, for protocols that fix it (RFC 6238 TOTP, RFC 4226 HOTP). Not for new designs: use
/// ``HMACSHA256``.
///
/// OpenSSL's `HMAC()` fails only when it cannot allocate memory; this then stops the process, as Swift does when its
/// own allocations fail, rather than return zeros that any answer could match.
public enum HMACSHA1 {
    /// The length of an authentication code, in bytes.
    public static let byteCount = 20

    /// The HMAC-SHA1 of `message` under `key`.
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: byteCount)
        var length: UInt32 = 0
        withContiguousBytes(key) { keyBytes in
            withContiguousBytes(message) { messageBytes in
                code.withUnsafeMutableBufferPointer { output in
                    let result = HMAC(
                        EVP_sha1(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress, messageBytes.count, output.baseAddress, &length)
                    precondition(result != nil && length == byteCount, "OpenSSL's HMAC-SHA1 failed (out of memory)")
                }
            }
        }
        return code
    }
}
