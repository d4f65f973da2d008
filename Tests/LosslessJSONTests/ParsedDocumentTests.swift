import LosslessJSON
import Testing

@Suite("ParsedDocument: one root member located and replaced in the original bytes")
struct ParsedDocumentTests {
    private func document(_ text: String, _ key: String = "response") throws -> ParsedDocument {
        try ParsedDocument(parsing: Array(text.utf8), locatingRootMember: key)
    }

    private func text(_ bytes: [UInt8]?) -> String? {
        bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    @Test("the value's exact bytes are located, whatever the white space around it")
    func locatesTheValue() throws {
        let source = " {\"a\": 1.50 ,\n \"response\" :  {\"x\": [1, 2]}  , \"z\":null}\n"
        let parsed = try document(source)
        let range = try #require(parsed.memberValueRange)
        #expect(String(decoding: parsed.bytes[range], as: UTF8.self) == "{\"x\": [1, 2]}")
        #expect(parsed.value == (try JSONValue(parsing: Array(source.utf8))))
    }

    @Test("a splice keeps every other byte as it came and writes the new value compact")
    func spliceKeepsTheRest() throws {
        let parsed = try document("{\"a\": 1.50 , \"response\" : {\"old\": true} , \"z\":1e3}")
        let replaced = parsed.replacingMemberValue(with: .object(JSONObject([("new", .string("v")), ("n", .null)])))
        #expect(text(replaced) == "{\"a\": 1.50 , \"response\" : {\"new\":\"v\",\"n\":null} , \"z\":1e3}")
    }

    @Test("a new value longer than the room the writer first gives it is written whole, escapes included")
    func longValue() throws {
        let parsed = try document("{\"a\":1,\"response\":null,\"z\":2}")
        let value = JSONValue.object(
            JSONObject([("s", .string(String(repeating: "x\"\u{1}é", count: 1000))), ("n", [nil, false])]))
        let replaced = try #require(parsed.replacingMemberValue(with: value))
        let escaped = String(repeating: #"x\"\u0001é"#, count: 1000)
        #expect(text(replaced) == #"{"a":1,"response":{"s":""# + escaped + #"","n":[null,false]},"z":2}"#)
    }

    @Test("values around the 1 KiB the writer tries first are written whole, spliced or alone", arguments: [1023, 1024, 1025])
    func valuesAroundTheFirstRoom(length: Int) throws {
        let characters = String(repeating: "a", count: length - 2)
        let value = JSONValue.string(characters)
        #expect(value.serialized() == Array("\"\(characters)\"".utf8))
        let parsed = try document("{\"a\":1,\"response\":null,\"z\":2}")
        let replaced = try #require(parsed.replacingMemberValue(with: value))
        #expect(text(replaced) == #"{"a":1,"response":""# + characters + #"","z":2}"#)
    }

    @Test("after a byte-order mark, the range still counts from the first byte, and the splice leaves the mark out")
    func byteOrderMark() throws {
        let parsed = try ParsedDocument(
            parsing: [0xEF, 0xBB, 0xBF] + Array("{\"response\":{}}".utf8), locatingRootMember: "response")
        #expect(parsed.memberValueRange == 15..<17)
        #expect(text(parsed.replacingMemberValue(with: .bool(true))) == "{\"response\":true}")
    }

    @Test("a document with a byte-order mark, spliced, is JSON without the mark and keeps every other byte")
    func byteOrderMarkSplicedDocument() throws {
        let body = " {\"a\": 1.50 ,\n \"response\" : {\"old\": true} , \"z\":\"\u{FEFF}\"}\n"
        let parsed = try ParsedDocument(parsing: [0xEF, 0xBB, 0xBF] + Array(body.utf8), locatingRootMember: "response")
        let replaced = try #require(parsed.replacingMemberValue(with: .object(JSONObject([("new", .string("v"))]))))
        #expect(!replaced.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(text(replaced) == " {\"a\": 1.50 ,\n \"response\" : {\"new\":\"v\"} , \"z\":\"\u{FEFF}\"}\n")
        let reread = try JSONValue(parsing: replaced).objectValue
        #expect(reread?["response"] == .object(JSONObject([("new", .string("v"))])))
        #expect(reread?["z"] == .string("\u{FEFF}"))
    }

    @Test("without a byte-order mark, the splice starts at the first byte (leading white space kept)")
    func noByteOrderMark() throws {
        let parsed = try document("\t{\"response\":1}")
        #expect(text(parsed.replacingMemberValue(with: .null)) == "\t{\"response\":null}")
    }

    @Test("nested members of that name, a missing member and a root that is not an object locate nothing", arguments: [
        #"{"request":{"response":{}}}"#,
        #"{"a":1}"#,
        #"[{"response":{}}]"#,
        #""response""#,
    ])
    func nothingLocated(source: String) throws {
        let parsed = try document(source)
        #expect(parsed.memberValueRange == nil)
        #expect(parsed.replacingMemberValue(with: .null) == nil)
    }

    @Test("a member that occurs twice is not located: a splice could not say which one the reader kept")
    func duplicateMember() throws {
        let parsed = try document(#"{"response":{"a":1},"response":{"b":2}}"#)
        #expect(parsed.memberValueRange == nil)
        #expect(parsed.value.objectValue?["response"] == .object(JSONObject([("b", .number(JSONNumber(2)))])))
    }

    @Test("keys are matched by their exact scalars, as everywhere in LosslessJSON")
    func exactKeys() throws {
        #expect(try document(#"{"caf\u00e9":1}"#, "café").memberValueRange == 13..<14)
        #expect(try document(#"{"cafe\u0301":1}"#, "café").memberValueRange == nil)
    }
}
