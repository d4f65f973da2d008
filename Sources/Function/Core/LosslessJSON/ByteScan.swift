extension UnsafeBufferPointer<UInt8> {
    /// The offset of the first byte from `start` on that a JSON string cannot hold as it is (a quote, a backslash or
    /// a control character) or, unless `passingNonASCII`, that is not ASCII; `count` when there is none. The one byte
    /// scan of the package: the parser and cursor find plain runs of ASCII with it (which need no decoding and hold no
    /// line break), the writer the bytes to escape. Eight bytes are tested at a time, where a byte at a time costs
    /// about nine instructions a byte; `ByteScanTests` holds it to a byte-at-a-time reference.
    @inline(__always)
    package func plainRunEnd(from start: Int, passingNonASCII: Bool = false) -> Int {
        var offset = start
        if let base = baseAddress {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while offset + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
                let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
                let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
                // A byte's high bit is set where the byte is a quote or a backslash (zero after the XOR), below 0x20,
                // or 0x80 and above (the word itself). A borrow sets bits only above the first such byte, the one
                // wanted; with non-ASCII passed, a borrow out of a byte of 0x80 or above is masked by `~word`.
                let zeroQuote = (quote &- ones) & ~quote, zeroBackslash = (backslash &- ones) & ~backslash
                let control = (word &- ones &* 0x20) & ~word
                let found = (zeroQuote | zeroBackslash | control | (passingNonASCII ? 0 : word)) & highBits
                if found != 0 { return offset + found.trailingZeroBitCount / 8 }
                offset += 8
            }
        }
        while offset < count {
            let byte = self[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 || (!passingNonASCII && byte >= 0x80) {
                return offset
            }
            offset += 1
        }
        return offset
    }
}
