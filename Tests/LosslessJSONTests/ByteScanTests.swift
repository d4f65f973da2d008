import LosslessJSON
import Testing

/// The eight-bytes-at-a-time scan against a byte-at-a-time reference, in both of its modes, over every start in
/// buffers that mix plain ASCII with each kind of byte that ends a run, at every position within a word.
@Suite struct ByteScanTests {
    /// The bytes a run can end at, and some that it cannot: the edges of each class.
    static let alphabet: [UInt8] =
        Array("az09 ~!/".utf8) + [0x22, 0x5C, 0x00, 0x01, 0x1F, 0x20, 0x21, 0x5B, 0x5D, 0x7F, 0x80, 0xA0, 0xC2, 0xE2, 0xFF]

    static func reference(_ bytes: [UInt8], from start: Int, passingNonASCII: Bool) -> Int {
        for offset in start..<bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return offset }
            if !passingNonASCII && byte >= 0x80 { return offset }
        }
        return bytes.count
    }

    @Test(arguments: [false, true])
    func matchesTheByteAtATimeReference(passingNonASCII: Bool) {
        var generator = SeededGenerator(seed: passingNonASCII ? 2 : 1)
        var compared = 0
        for length in 0...40 {
            for _ in 0..<60 {
                // Mostly plain letters, so that runs are long enough to cross words before they end.
                let bytes = (0..<length).map { _ in
                    generator.next() % 4 == 0
                        ? Self.alphabet[Int(generator.next() % UInt64(Self.alphabet.count))] : UInt8(ascii: "m")
                }
                bytes.withUnsafeBufferPointer { buffer in
                    for start in 0...length {
                        let expected = Self.reference(bytes, from: start, passingNonASCII: passingNonASCII)
                        let found = buffer.plainRunEnd(from: start, passingNonASCII: passingNonASCII)
                        #expect(found == expected, "\(bytes) from \(start)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 50_000)
    }

    @Test func eachEndingByteIsFoundAtEachPlaceInAWord() {
        for ending: UInt8 in [0x22, 0x5C, 0x00, 0x1F, 0x80, 0xFF] {
            for position in 0..<16 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 16)
                bytes[position] = ending
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(buffer.plainRunEnd(from: 0) == position)
                    #expect(buffer.plainRunEnd(from: 0, passingNonASCII: true) == (ending >= 0x80 ? 16 : position))
                }
            }
        }
    }
}
