import LosslessJSON
import Testing

@Suite struct PropertyTests {
    @Test(arguments: [JSONValue.Layout.compact, .pretty])
    func randomValuesSurviveWritingAndReading(layout: JSONValue.Layout) throws {
        var random = RandomJSON(seed: 0x5EED_CAFE)
        for index in 0..<3000 {
            let value = random.value()
            let written = value.serialized(layout)
            let reread = try JSONValue(parsing: written)
            // Equality ignores member order; writing the re-read value again checks order and literals too.
            guard reread == value, reread.serialized(layout) == written else {
                Issue.record("value \(index) changed: \(value.text())")
                return
            }
        }
    }

    @Test func compactAndPrettyDescribeTheSameValue() throws {
        var random = RandomJSON(seed: 42)
        for index in 0..<1000 {
            let value = random.value()
            let compact = try JSONValue(parsing: value.serialized(.compact))
            let pretty = try JSONValue(parsing: value.serialized(.pretty))
            guard compact.serialized() == pretty.serialized() else {
                Issue.record("value \(index) reads differently in the two layouts: \(value.text())")
                return
            }
        }
    }

    /// Damaged documents must be read or refused with a usable error; never crash, never loop.
    @Test func damagedDocumentsNeverCrashTheParser() {
        var random = RandomJSON(seed: 7)
        var refused = 0
        for _ in 0..<5000 {
            let bytes = random.damagedDocument()
            do {
                let value = try JSONValue(parsing: bytes)
                #expect(try JSONValue(parsing: value.serialized()) == value)
            } catch {
                refused += 1
                #expect((0...bytes.count).contains(error.offset))
                #expect(error.path.hasPrefix("$"))
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(refused > 1000, "the damage should break most documents")
    }
}
