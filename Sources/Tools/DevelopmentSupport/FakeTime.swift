import Foundation

/// libfaketime (Debian package `faketime`), preloaded into a program rather than through the `faketime` wrapper
/// (which would run it as a grandchild that a signal to the wrapper does not reach): the program reads a frozen wall
/// clock (CLOCK_REALTIME, which the triggers' clock uses), while the monotonic clocks its timeouts use keep running.
public enum FakeTime {
    public static let library = [
        "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1", "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
        "/usr/lib/faketime/libfaketime.so.1", "/usr/local/lib/faketime/libfaketime.so.1",
    ].first { FileManager.default.fileExists(atPath: $0) }

    /// The settings that freeze the clock of a program started with them at `seconds` since 1970.
    public static func environment(frozenAt seconds: Int64, library: String) -> [String: String] {
        ["LD_PRELOAD": library, "FAKETIME": absoluteTime(seconds), "TZ": "UTC", "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    /// `seconds` since 1970 as libfaketime's absolute time, `YYYY-MM-DD hh:mm:ss` read in the time zone `TZ` (UTC),
    /// without a leading `@`: the clock stands still there instead of starting from it.
    public static func absoluteTime(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return String(
            format: "%04d-%02d-%02d %02d:%02d:%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }
}
