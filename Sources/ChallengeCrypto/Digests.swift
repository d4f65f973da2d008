import COpenSSL
import Synchronization

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
/// which costs several times the MAC itself. The MAC is fetched once instead, and a context already keyed is kept
/// for each of the few keys a process uses (its secrets), so that a MAC is a copy of that context, the message and
/// the final hash.
public enum HMACSHA256 {
    public static func authenticationCode(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var code = [UInt8](repeating: 0, count: SHA256.byteCount)
        withContiguousBytes(key) { keyBytes in
            withContiguousBytes(message) { messageBytes in
                code.withUnsafeMutableBufferPointer { output in
                    let context = KeyedHMACContexts.context(key: keyBytes)
                    defer { EVP_MAC_CTX_free(context) }
                    var length = 0
                    let result = EVP_MAC_update(context, messageBytes.baseAddress, messageBytes.count) == 1
                        && EVP_MAC_final(context, output.baseAddress, &length, output.count) == 1
                    precondition(result && length == SHA256.byteCount, "OpenSSL's HMAC-SHA256 failed (out of memory)")
                }
            }
        }
        return code
    }

    public static func authenticationCode(key: some Collection<UInt8>, message: String) -> [UInt8] {
        authenticationCode(key: key, message: Array(message.utf8))
    }
}

/// HMAC-SHA256 contexts keyed once per key and copied for each MAC.
///
/// Holds at most ``capacity`` keys, the first ones seen: a process uses one to three secrets, and any further key
/// (tests use many) gets a context of its own that is keyed, used once and freed. The pads kept here are derived
/// from the keys, so they are as secret as the keys the process already holds.
private enum KeyedHMACContexts {
    static let capacity = 4

    /// An OpenSSL context: the ones kept are only read (copied) under the lock, a copy has one owner.
    struct Context: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private static let mac: Context = {
        guard let mac = EVP_MAC_fetch(nil, "HMAC", nil) else { preconditionFailure("OpenSSL has no HMAC (out of memory?)") }
        return Context(pointer: mac)
    }()
    private static let entries = Mutex<[(key: [UInt8], context: Context)]>([])

    /// A context ready for the message, which the caller frees with `EVP_MAC_CTX_free`.
    static func context(key: UnsafeBufferPointer<UInt8>) -> OpaquePointer {
        let keyBytes = Array(key)
        let context = entries.withLock { entries in
            if let entry = entries.first(where: { $0.key == keyBytes }) { return duplicate(entry.context) }
            let keyed = newContext(key: keyBytes)
            guard entries.count < capacity else { return keyed }
            entries.append((keyBytes, keyed))
            return duplicate(keyed)
        }
        return context.pointer
    }

    private static func duplicate(_ context: Context) -> Context {
        guard let copy = EVP_MAC_CTX_dup(context.pointer) else {
            preconditionFailure("OpenSSL's HMAC-SHA256 failed (out of memory)")
        }
        return Context(pointer: copy)
    }

    private static func newContext(key: [UInt8]) -> Context {
        let context = EVP_MAC_CTX_new(mac.pointer)
        var digestName = Array("SHA256".utf8CString)
        let initialized = digestName.withUnsafeMutableBufferPointer { digest in
            var parameters = [
                OSSL_PARAM_construct_utf8_string("digest", digest.baseAddress, 0), OSSL_PARAM_construct_end(),
            ]
            // An empty key still needs a pointer: OpenSSL reads a null key as "keep the previous key".
            let keyBytes = key.isEmpty ? [0] : key
            return keyBytes.withUnsafeBufferPointer { bytes in
                EVP_MAC_init(context, bytes.baseAddress, key.count, &parameters) == 1
            }
        }
        guard let context, initialized else { preconditionFailure("OpenSSL's HMAC-SHA256 failed (out of memory)") }
        return Context(pointer: context)
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
