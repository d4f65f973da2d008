#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `_X_AMZN_TRACE_ID`, which X-Ray SDKs read, follows the invocation being served.
///
/// `setenv` would keep every value ever set (glibc never frees them, so a new trace id per invocation is a slow leak)
/// and search them all each time; this writes `NAME=value` into one buffer that `putenv` put in the environment, in
/// place. Only a trace id too long for the buffer goes through `setenv`.
final class TraceVariable {
    private static let prefix = Array("_X_AMZN_TRACE_ID=".utf8)
    private static let capacity = 1024
    private let entry = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    private var isInstalled = false

    func set(_ traceID: String?) {
        guard var traceID else {
            unsetenv("_X_AMZN_TRACE_ID")
            isInstalled = false
            return
        }
        let length = traceID.utf8.count
        guard Self.prefix.count + length < Self.capacity else {
            unsetenv("_X_AMZN_TRACE_ID")
            isInstalled = false
            setenv("_X_AMZN_TRACE_ID", traceID, 1)
            return
        }
        let bytes = UnsafeMutableRawPointer(entry)
        Self.prefix.withUnsafeBytes { bytes.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        traceID.withUTF8 { value in
            if let start = value.baseAddress { (bytes + Self.prefix.count).copyMemory(from: start, byteCount: length) }
        }
        bytes.storeBytes(of: 0, toByteOffset: Self.prefix.count + length, as: UInt8.self)
        if !isInstalled {
            unsetenv("_X_AMZN_TRACE_ID")
            putenv(entry)
            isInstalled = true
        }
    }

    deinit {
        if isInstalled { unsetenv("_X_AMZN_TRACE_ID") }
        entry.deallocate()
    }
}
