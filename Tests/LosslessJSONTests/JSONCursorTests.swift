import LosslessJSON
import Testing

@Suite("JSONCursor: a document walked step by step reads as JSONValue(parsing:) reads it")
struct JSONCursorTests {
    /// True when the cursor skips the whole document without an error.
    private func skips(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            do {
                try cursor.beginDocument()
                try cursor.skipValue()
                try cursor.endDocument()
                return true
            } catch {
                return false
            }
        }
    }

    /// The document rebuilt member by member and element by element with the cursor's steps.
    private func walk(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                var cursor = JSONCursor(buffer)
                try cursor.beginDocument()
                let value = try walkValue(&cursor)
                try cursor.endDocument()
                return value
            }
        }
        return try result.get()
    }

    private func walkValue(_ cursor: inout JSONCursor) throws(JSONParseError) -> JSONValue {
        switch cursor.nextKind() {
        case .object:
            try cursor.beginObject()
            var object = JSONObject()
            while let key = try cursor.nextMember() {
                object[key.string] = try walkValue(&cursor)
            }
            return .object(object)
        case .array:
            try cursor.beginArray()
            var elements: [JSONValue] = []
            while try cursor.nextElement() {
                elements.append(try walkValue(&cursor))
            }
            return .array(elements)
        case .string: return .string(try cursor.readString())
        case .boolean: return .bool(try cursor.readBool())
        case .number, .null, nil: return try cursor.readValue()
        }
    }

    @Test("random documents, whole and damaged: skipped and walked exactly when they parse, walked to the same value")
    func agreesWithTheParser() throws {
        var random = RandomJSON(seed: 0xC0_4501)
        var refused = 0
        for index in 0..<4000 {
            let bytes = index.isMultiple(of: 2) ? random.value().serialized(.pretty) : random.damagedDocument()
            let parsed = try? JSONValue(parsing: bytes)
            let walked = try? walk(bytes)
            guard skips(bytes) == (parsed != nil), walked == parsed,
                walked.map({ $0.serialized() }) == parsed.map({ $0.serialized() })
            else {
                Issue.record("document \(index) reads differently: \(String(decoding: bytes, as: UTF8.self))")
                return
            }
            if parsed == nil { refused += 1 }
        }
        #expect(refused > 800, "the damage should break most damaged documents")
    }

    @Test("a string ends, is escaped or is refused at every offset, read eight bytes at a time or one by one")
    func stringsAtEveryOffset() {
        // What is put into a string of plain letters, and what it reads as (nil: the document is refused).
        let inserts: [([UInt8], String?)] = [
            (Array(#"\n"#.utf8), "\n"), (Array(#"\""#.utf8), "\""), ([0x7F], "\u{7F}"), ([0xC3, 0xA9], "é"),
            ([0x1F], nil), ([0x00], nil), ([0x80], nil), ([0xC3], nil),
        ]
        for length in 0..<20 {
            for position in 0...length {
                let before = String(repeating: "a", count: position)
                let after = String(repeating: "b", count: length - position)
                for (insert, reading) in inserts {
                    let string = Array("\"\(before)".utf8) + insert + Array("\(after)\"".utf8)
                    let expected = reading.map { JSONValue.string(before + $0 + after) }
                    // The string as the whole document (its quote the last byte), as a key, and skipped in an array.
                    #expect((try? JSONValue(parsing: string)) == expected)
                    let key = (try? walk(Array("{".utf8) + string + Array(":0}".utf8)))?.objectValue?.keys.first
                    #expect(key.map(JSONValue.string) == expected)
                    #expect(skips(Array("[".utf8) + string + Array("]".utf8)) == (expected != nil))
                }
            }
        }
    }

    @Test("the nesting limit is the parser's", arguments: [255, 256, 257])
    func nestingLimit(depth: Int) {
        let bytes = Array(repeating: UInt8(ascii: "["), count: depth) + Array(repeating: UInt8(ascii: "]"), count: depth)
        // The same depth, the outermost level an object entered with the cursor's own steps.
        let inObject = Array(#"{"a":"#.utf8) + bytes.dropFirst().dropLast() + Array("}".utf8)
        #expect(skips(bytes) == (depth <= 256))
        #expect(skips(bytes) == ((try? JSONValue(parsing: bytes)) != nil))
        #expect(((try? walk(inObject)) != nil) == (depth <= 256))
        #expect(((try? JSONValue(parsing: inObject)) != nil) == (depth <= 256))
    }

    @Test("after a member's key, the offset is its value's first byte; a key is matched scalar for scalar")
    func offsetsAndKeys() throws {
        let text = "\u{FEFF} { \"a\" :\t[1, 2] ,\"\\u0062\": \"x\", \"é\":null }"
        let bytes = Array(text.utf8)
        var matched: [String] = []
        var values: [String] = []
        try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in
            var cursor = JSONCursor(buffer)
            try cursor.beginDocument()
            try cursor.beginObject()
            while let key = try cursor.nextMember() {
                let start = cursor.offset
                try cursor.skipValue()
                values.append(String(decoding: buffer[start..<cursor.offset], as: UTF8.self))
                matched.append(["a", "b", "é"].first { key.string == $0 } ?? "?")
                #expect(key.matches("a") == (key.string == "a"))
                #expect(key.matches("b") == (key.string == "b"))
                #expect(key.position(in: ["x", "b", "a"]) == ["x", "b", "a"].firstIndex(of: key.string))
            }
            try cursor.endDocument()
        }
        #expect(values == ["[1, 2]", "\"x\"", "null"])
        #expect(matched == ["a", "b", "é"])
    }
}
