import Basics
import Testing

@Suite("One environment reader: empty is unset, and every problem names its variable")
struct EnvironmentReaderTests {
    static let reader = EnvironmentReader([
        "SET": "value", "EMPTY": "", "SPACES": "  \t", "PADDED": " eu-west-1\n", "COUNT": "250", "WORD": "ten",
        "DECIMAL": "2.5", "LOW": "99",
    ])

    @Test func anEmptyVariableIsUnset() {
        #expect(Self.reader.value("SET") == "value")
        #expect(Self.reader.value("EMPTY") == nil)
        #expect(Self.reader.value("MISSING") == nil)
        // Only trimmedValue looks past white space.
        #expect(Self.reader.value("SPACES") == "  \t")
        #expect(Self.reader.trimmedValue("SPACES") == nil)
        #expect(Self.reader.trimmedValue("PADDED") == "eu-west-1")
    }

    @Test func aRequiredVariableSaysWhatToSetItTo() {
        #expect(throws: SettingError(variable: "EMPTY", problem: "is not set: name the table")) {
            try Self.reader.required("EMPTY", purpose: "name the table")
        }
        #expect(throws: Never.self) { try Self.reader.required("SET", purpose: "anything") }
        #expect("\(SettingError(variable: "EMPTY", problem: "is not set: name the table"))" == "EMPTY is not set: name the table")
    }

    @Test(arguments: [("WORD", "ten"), ("DECIMAL", "2.5"), ("LOW", "99")])
    func aNumberOutsideItsRangeQuotesItAndTheRange(variable: String, text: String) {
        #expect(throws: SettingError(variable: variable, problem: "is \"\(text)\"; expected whole milliseconds from 100 to 2000")) {
            try Self.reader.integer(variable, default: 1000, in: 100...2000, unit: "milliseconds")
        }
    }

    @Test func numbersAndDurationsWithTheirDefaults() throws {
        #expect(try Self.reader.integer("COUNT", default: 1000, in: 100...2000, unit: "milliseconds") == 250)
        #expect(try Self.reader.integer("EMPTY", default: 1000, in: 100...2000, unit: "milliseconds") == 1000)
        #expect(try Self.reader.milliseconds("COUNT", default: .seconds(1), in: 100...2000) == .milliseconds(250))
        #expect(try Self.reader.milliseconds("MISSING", default: .seconds(1), in: 100...2000) == .seconds(1))
        #expect(throws: SettingError.self) { try Self.reader.milliseconds("LOW", default: .seconds(1), in: 100...2000) }
    }

    @Test(arguments: [("  a b  ", "a b"), ("\tx\n", "x"), ("", ""), (" \t\r\n ", ""), ("same", "same")])
    func whiteSpaceIsTrimmedAtBothEndsOnly(text: String, trimmed: String) {
        #expect(text.trimmingWhitespace() == trimmed)
        #expect(text[...].trimmingWhitespace() == trimmed)
    }
}
