import Basics
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
///
/// OpenSSL 3's one-shot `HMAC()` looks the algorithms up by name and hashes the key into fresh pads on every call,
/// which costs several times the MAC itself. The MAC is fetched once instead, and a context keyed once is kept for
/// each of the few keys a process uses (its secrets): a MAC then restarts that context from its inner pad, hashes the
/// message and finishes.
public enum HMACSHA256 {
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        withContiguousBytes(key) { keyBytes in withContiguousBytes(message) { code(key: keyBytes, message: $0) } }
    }

    /// The same for arrays, the form every code's hash takes, without generic dispatch.
    public static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        key.withUnsafeBufferPointer { keyBytes in message.withUnsafeBufferPointer { code(key: keyBytes, message: $0) } }
    }

    private static func code(key: UnsafeBufferPointer<UInt8>, message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: SHA256.byteCount) { output, initializedCount in
            let result = KeyedHMACContexts.authenticate(message, key: key, into: output)
            precondition(result, "OpenSSL's HMAC-SHA256 failed (out of memory)")
            initializedCount = SHA256.byteCount
        }
    }

    public static func authenticationCode(key: some Collection<UInt8>, message: String) -> [UInt8] {
        authenticationCode(key: key, message: Array(message.utf8))
    }
}

/// HMAC-SHA256 contexts, keyed once per key and restarted for each MAC.
///
/// Holds at most ``capacity`` keys, the first ones seen: a process uses one to three secrets, and any further key
/// (tests use many) gets a context of its own that is keyed, used once and freed. The pads kept here are derived
/// from the keys, so they are as secret as the keys the process already holds. A kept context serves one MAC at a
/// time, under the lock.
private enum KeyedHMACContexts {
    static let capacity = 4

    /// An OpenSSL object: the MAC is only read, and a keyed context is only used under the lock.
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let mac: Handle? = EVP_MAC_fetch(nil, "HMAC", nil).map(Handle.init(pointer:))
    private static let entries = PosixLock<[(key: [UInt8], context: Handle)]>([])

    /// Writes the MAC of `message` under `key` to `output` (32 bytes); false when OpenSSL failed.
    static func authenticate(
        _ message: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let keyBytes = Array(key)
        return entries.withLock { entries in
            if let entry = entries.first(where: { $0.key == keyBytes }) {
                // A null key restarts the context from the pads it already holds.
                return EVP_MAC_init(entry.context.pointer, nil, 0, nil) == 1 && finish(entry.context, message, output)
            }
            guard let context = keyedContext(keyBytes) else { return false }
            guard entries.count < capacity else {
                defer { EVP_MAC_CTX_free(context.pointer) }
                return finish(context, message, output)
            }
            entries.append((keyBytes, context))
            return finish(context, message, output)
        }
    }

    private static func finish(
        _ context: Handle, _ message: UnsafeBufferPointer<UInt8>, _ output: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        var length = 0
        return EVP_MAC_update(context.pointer, message.baseAddress, message.count) == 1
            && EVP_MAC_final(context.pointer, output.baseAddress, &length, output.count) == 1 && length == SHA256.byteCount
    }

    /// A new context keyed with `key`, or nil when OpenSSL failed.
    private static func keyedContext(_ key: [UInt8]) -> Handle? {
        guard let mac, let context = EVP_MAC_CTX_new(mac.pointer) else { return nil }
        // An empty key still needs a pointer: OpenSSL reads a null key as "keep the key you have".
        let keyBytes = key.isEmpty ? [0] : key
        let keyed = "digest".withCString { parameter in
            "SHA256".withCString { digest in
                var parameters = [
                    OSSL_PARAM_construct_utf8_string(parameter, UnsafeMutablePointer(mutating: digest), 0),
                    OSSL_PARAM_construct_end(),
                ]
                return keyBytes.withUnsafeBufferPointer { bytes in
                    EVP_MAC_init(context, bytes.baseAddress, key.count, &parameters) == 1
                }
            }
        }
        guard keyed else {
            EVP_MAC_CTX_free(context)
            return nil
        }
        return Handle(pointer: context)
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
