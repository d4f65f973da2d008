#if canImport(Glibc)
import Glibc
#endif

/// A TCP port nobody listens on, for a server that must be told its port before it starts (moto, or a pool whose
/// origin goes into the function's settings). Another process may take it before the server does; on loopback that
/// is rare, and the server then fails to start, saying so.
public enum FreePort {
    /// A port free on `host` (an IPv4 address) now; nil when no socket could be bound there.
    public static func find(host: String = "127.0.0.1") -> Int? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
