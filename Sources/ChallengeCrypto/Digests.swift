import COpenSSL

/// SHA-256 on OpenSSL.
///
/// OpenSSL's one-shot digests fail only when it cannot allocate memory. Both digests then stop the process, as Swift
/// does when its own allocations fail, rather than return zeros: a hash of zeros for every answer would make every
/// answer look right.
public enum SHA256 {
    public static let byteCount = 32

    public static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        withContiguousBytes(message) { input in
            digest.withUnsafeMutableBufferPointer { output in
                let result = COpenSSL.SHA256(input.baseAddress, input.count, output.baseAddress)
                precondition(result != nil, "OpenSSL's SHA256 failed (out of memory)")
            }
        }
        return digest
    }

    public static func hash(_ message: String) -> [UInt8] {
        hash(Array(message.utf8))
    }
}

/// HMAC-SHA256 on OpenSSL; stops the process if OpenSSL fails (see ``SHA256``).
public enum HMACSHA256 {
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: SHA256.byteCount)
        var length: UInt32 = 0
        withContiguousBytes(key) { keyBytes in
            withContiguousBytes(message) { messageBytes in
                code.withUnsafeMutableBufferPointer { output in
                    let result = HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                        messageBytes.baseAddress, messageBytes.count, output.baseAddress, &length)
                    precondition(result != nil && length == SHA256.byteCount, "OpenSSL's HMAC-SHA256 failed (out of memory)")
                }
            }
        }
        return code
    }

    public static func authenticationCode(key: some Collection<UInt8>, message: String) -> [UInt8] {
        authenticationCode(key: key, message: Array(message.utf8))
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
func withContiguousBytes<Result>(
    _ bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
    if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
    return Array(bytes).withUnsafeBufferPointer(body)
}

/// HMAC-SHA1 on OpenSSL, for protocols that fix it (RFC 6238 TOTP, RFC 4226 HOTP); stops the process if OpenSSL
/// fails (see ``SHA256``). Not for new designs: use ``HMACSHA256``.
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
