import LosslessJSON

/// Parses UTF-8 text, so tests read as JSON rather than byte arrays.
func parse(_ text: String) throws(JSONParseError) -> JSONValue {
    try JSONValue(parsing: Array(text.utf8))
}

/// The error parsing `bytes` gives, or nil when it parses.
func parseError(_ bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try JSONValue(parsing: bytes)
        return nil
    } catch {
        return error
    }
}

func parseError(_ text: String) -> JSONParseError? {
    parseError(Array(text.utf8))
}

/// A small, fast, seeded generator (SplitMix64), so random tests repeat exactly.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
