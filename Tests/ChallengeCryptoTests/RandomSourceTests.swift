import ChallengeCrypto
import Platform
import Testing

@Suite struct SystemRandomTests {
    @Test(arguments: [0, 1, 32, 1000])
    func givesTheRequestedNumberOfBytes(count: Int) throws {
        #expect(try SystemRandom().bytes(count: count).count == count)
    }

    @Test func drawsDiffer() throws {
        let random = SystemRandom()
        let draws = try (0..<8).map { _ in try random.bytes(count: 32) }
        // 8 draws of 256 bits: a repeat would mean the generator is broken, not unlucky.
        #expect(Set(draws).count == draws.count)
    }

    @Test func bytesCoverTheWholeRange() throws {
        let bytes = try SystemRandom().bytes(count: 10_000)
        // Each value is missed by all 10,000 draws with probability (255/256)^10000 ≈ 1e-17.
        #expect(Set(bytes).count == 256)
    }

    @Test("small draws, served a block of OpenSSL's output at a time, never repeat across many blocks")
    func smallDrawsNeverRepeat() throws {
        let random = SystemRandom()
        // 5,000 draws of a code's 14 bytes span hundreds of 256-byte blocks; a repeat of 112 random bits, or a byte
        // handed out twice, would show as a duplicate.
        let draws = try (0..<5_000).map { _ in try random.bytes(count: 14) }
        #expect(Set(draws).count == draws.count)
        #expect(Set(draws.joined()).count == 256)
    }

    @Test("draws around the largest one served from the block, and larger ones, are filled and differ", arguments: [63, 64, 65, 300])
    func drawsAroundTheBlockLimit(count: Int) throws {
        let random = SystemRandom()
        let draws = try (0..<16).map { _ in try random.bytes(count: count) }
        #expect(draws.allSatisfy { $0.count == count })
        #expect(Set(draws).count == draws.count)
    }

    @Test func fillingAnEmptyBufferDoesNothing() {
        #expect(throws: Never.self) { try SystemRandom().fill(UnsafeMutableRawBufferPointer(start: nil, count: 0)) }
    }
}

@Suite struct UniformIntegerTests {
    /// Independent statement of the rejection limit: the largest multiple of `bound` not above 2^32.
    static func limit(for bound: UInt32) -> UInt64 {
        let range = UInt64(1) << 32
        return range - range % UInt64(bound)
    }

    @Test func drawsAtOrAboveTheLimitAreDiscardedForBoundTen() throws {
        // 2^32 mod 10 = 6, so draws 4294967290 ... 4294967295 would favour digits 0 to 5.
        #expect(Self.limit(for: 10) == 4_294_967_290)
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 4_294_967_290, 4_294_967_289, 3])
        #expect(try random.uniformInteger(below: 10) == 9)
        #expect(random.unusedByteCount == 4, "exactly three draws were used")
        #expect(try random.uniformInteger(below: 10) == 3)
    }

    @Test(arguments: [2, 3, 5, 6, 7, 10, 100, 1000, 1_000_000, 0x8000_0001, UInt32.max - 1, UInt32.max] as [UInt32])
    func theLimitIsExactForEveryBound(bound: UInt32) throws {
        let limit = Self.limit(for: bound)
        // The last accepted draw maps to the largest result; the first rejected one is skipped.
        let lastAccepted = UInt32(limit - 1)
        #expect(try ScriptedRandom(draws: [lastAccepted]).uniformInteger(below: bound) == bound - 1)
        if limit < UInt64(1) << 32 {
            let firstRejected = UInt32(limit)
            let random = ScriptedRandom(draws: [firstRejected, 0xFFFF_FFFF, 5])
            #expect(try random.uniformInteger(below: bound) == 5 % bound)
            #expect(random.unusedByteCount == 0)
        }
        #expect(try ScriptedRandom(draws: [0]).uniformInteger(below: bound) == 0)
    }

    @Test func boundOneIsAlwaysZeroAndUsesOneDraw() throws {
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 0, 12345])
        for _ in 0..<3 { #expect(try random.uniformInteger(below: 1) == 0) }
        #expect(random.unusedByteCount == 0)
    }

    @Test func boundUInt32MaxRejectsOnlyTheTopDraw() throws {
        // 2^32 mod (2^32 - 1) = 1: only 0xFFFFFFFF is biased.
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFE])
        #expect(try random.uniformInteger(below: .max) == 0xFFFF_FFFE)
        #expect(random.unusedByteCount == 0)
    }

    @Test func powersOfTwoRejectNothing() throws {
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 0xFFFF_FFFF])
        #expect(try random.uniformInteger(below: 16) == 15)
        #expect(try random.uniformInteger(below: 1 << 31) == (1 << 31) - 1)
    }

    @Test func aFailingSourceStopsTheDrawWithItsError() {
        // Only rejected draws, then the script ends: the error surfaces instead of a hang.
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 0xFFFF_FFFE])
        #expect(throws: ScriptedRandom.ScriptExhausted.self) { try random.uniformInteger(below: 10) }
        #expect(throws: ScriptedRandom.ScriptExhausted.self) { try ScriptedRandom(bytes: [1, 2, 3]).bytes(count: 4) }
    }

    @Test func resultsFromTheSystemStayBelowTheBound() throws {
        let random = SystemRandom()
        for bound: UInt32 in [1, 2, 3, 10, 1000, .max] {
            for _ in 0..<500 { #expect(try random.uniformInteger(below: bound) < bound) }
        }
    }
}

@Suite struct DecimalDigitsTests {
    @Test func eachDigitIsAnUnbiasedDraw() throws {
        let random = ScriptedRandom(draws: [0xFFFF_FFFF, 7, 12, 4_294_967_290, 0, 4_294_967_289])
        #expect(try random.decimalDigits(count: 4) == "7209")
        #expect(random.unusedByteCount == 0)
    }

    @Test func leadingZerosAreKept() throws {
        #expect(try ScriptedRandom(draws: [0, 10, 20, 30, 40, 50]).decimalDigits(count: 6) == "000000")
    }

    @Test func zeroDigitsDrawNothing() throws {
        let random = ScriptedRandom(draws: [1])
        #expect(try random.decimalDigits(count: 0) == "")
        #expect(random.unusedByteCount == 4)
    }

    @Test func systemCodesHaveTheRequestedLength() throws {
        for count in [1, 6, 8, 64] {
            let code = try SystemRandom().decimalDigits(count: count)
            #expect(code.utf8.count == count)
            #expect(code.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        }
    }
}
