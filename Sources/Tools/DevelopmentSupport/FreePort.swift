#if canImport(Glibc)
import Glibc
#endif

import Foundation
import Platform

/// A TCP port nobody listens on, for a server that must be told its port before it starts (moto, or a pool whose
/// origin goes into the function's settings).
///
/// The port is chosen below the kernel's range of ephemeral ports: a server that binds port 0, or a client's
/// connection, is given a port from that range, so none of them can take this one before the server it is meant for
/// binds it. No port is given twice in a process. Another process that picks ports the same way may still take it
/// first; the server then fails to start, saying so.
public enum FreePort {
    /// A port free on `host` (an IPv4 address) now; nil when no socket could be bound there.
    public static func find(host: String = "127.0.0.1") -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        let candidates = UInt16(10_000)..<max(10_001, ephemeralStart())
        return handedOut.withLock { handedOut in
            for _ in 0..<1000 {
                let port = UInt16.random(in: candidates)
                guard !handedOut.contains(port) else { continue }
                address.sin_port = port.bigEndian
                guard bound(&address) else { continue }
                handedOut.insert(port)
                return Int(port)
            }
            // Every try was taken: the kernel's choice, from the ephemeral range.
            address.sin_port = 0
            guard bound(&address) else { return nil }
            let port = UInt16(bigEndian: address.sin_port)
            handedOut.insert(port)
            return Int(port)
        }
    }

    /// The ports given out so far.
    private static let handedOut = PosixLock(Set<UInt16>())

    /// The first port of the kernel's ephemeral range (`/proc/sys/net/ipv4/ip_local_port_range`); Linux's default,
    /// 32768, where that cannot be read.
    private static func ephemeralStart() -> UInt16 {
        let range = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        return range?.split(whereSeparator: \.isWhitespace).first.flatMap { UInt16($0) } ?? 32768
    }

    /// Whether a socket binds `address` now; for port 0, the port it was given is written back into `address`.
    private static func bound(_ address: inout sockaddr_in) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
    }
}
