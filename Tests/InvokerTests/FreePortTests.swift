import DevelopmentSupport
import Foundation
import Invoker
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The ports the local tools pick for servers that must know their port before they start (moto, `--port 0`).
struct FreePortTests {
    @Test("ports are free, distinct and below the ephemeral range, where no port-0 server or client takes them")
    func portsAreFreeDistinctAndBelowTheEphemeralRange() throws {
        let ports = try (0..<20).map { _ in try #require(FreePort.find()) }
        #expect(Set(ports).count == ports.count, "no port is given twice")
        let range = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeralStart = try #require(range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        #expect(ports.allSatisfy { $0 >= 10_000 && $0 < ephemeralStart })
        // Free now: each one can be bound.
        for port in ports { #expect(Self.binds(port), "port \(port)") }
    }

    @Test("a host that is not an IPv4 address gives no port")
    func notAnAddress() {
        #expect(FreePort.find(host: "localhost") == nil)
    }

    private static func binds(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
