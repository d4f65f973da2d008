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
        guard let traceID else {
            unsetenv("_X_AMZN_TRACE_ID")
            isInstalled = false
            return
        }
        let value = traceID.utf8
        guard Self.prefix.count + value.count < Self.capacity else {
            unsetenv("_X_AMZN_TRACE_ID")
            isInstalled = false
            setenv("_X_AMZN_TRACE_ID", traceID, 1)
            return
        }
        let bytes = UnsafeMutableRawPointer(entry).assumingMemoryBound(to: UInt8.self)
        var offset = 0
        for byte in Self.prefix { bytes[offset] = byte; offset += 1 }
        for byte in value { bytes[offset] = byte; offset += 1 }
        bytes[offset] = 0
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
