#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a system keeps its PEM bundle of trusted certificate authorities.
public enum CABundle {
    /// Amazon Linux 2023 (Lambda's `provided.al2023`), then Debian and Ubuntu.
    public static let knownPaths = ["/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/certs/ca-certificates.crt"]

    /// The first readable file of ``knownPaths``, or nil.
    public static func installed() -> String? {
        knownPaths.first { access($0, R_OK) == 0 }
    }
}
