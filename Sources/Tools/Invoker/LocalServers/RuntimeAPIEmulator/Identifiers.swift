#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Request ids and X-Ray trace headers shaped like Lambda's.
enum Identifiers {
    /// A random UUID (version 4), lower-case, as Lambda's request ids are.
    static func requestID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return hexadecimal(bytes, dashesBefore: [4, 6, 8, 10])
    }

    /// `Root=1-<epoch seconds, hex>-<96 random bits>;Parent=<64 random bits>;Sampled=0`.
    static func traceID() -> String {
        var generator = SystemRandomNumberGenerator()
        let seconds = String(WallClock.millisecondsSinceEpoch() / 1000, radix: 16)
        let root = hexadecimal((0..<12).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let parent = hexadecimal((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return "Root=1-\(seconds)-\(root);Parent=\(parent);Sampled=0"
    }

    private static func hexadecimal(_ bytes: [UInt8], dashesBefore dashes: Set<Int> = []) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            if dashes.contains(index) { text.append(UInt8(ascii: "-")) }
            text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The real-time clock, which deadlines are expressed in.
enum WallClock {
    static func millisecondsSinceEpoch() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
