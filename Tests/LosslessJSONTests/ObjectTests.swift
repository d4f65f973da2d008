import LosslessJSON
import Testing

@Suite struct ObjectTests {
    @Test func membersKeepTheirInputOrder() throws {
        let object = try #require(try parse(#"{"z":1,"a":2,"m":3,"b":4}"#).objectValue)
        #expect(object.keys == ["z", "a", "m", "b"])
        #expect(object.map(\.key) == ["z", "a", "m", "b"])
        #expect(object.map(\.value) == [1, 2, 3, 4])
        #expect(object.count == 4)
        #expect(!object.isEmpty)
        #expect(JSONObject().isEmpty)
    }

    @Test func assigningAnExistingKeyReplacesItInPlace() throws {
        var object = try #require(try parse(#"{"a":1,"b":2,"c":3}"#).objectValue)
        object["b"] = "two"
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["b"] == "two")
        #expect(JSONValue.object(object).text() == #"{"a":1,"b":"two","c":3}"#)
    }

    @Test func assigningANewKeyAppendsIt() {
        var object = JSONObject()
        object["b"] = 1
        object["a"] = 2
        #expect(object.keys == ["b", "a"])
        #expect(JSONValue.object(object).text() == #"{"b":1,"a":2}"#)
    }

    @Test func assigningNilRemovesTheMember() throws {
        var object = try #require(try parse(#"{"a":1,"b":2,"c":3}"#).objectValue)
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["b"] == nil)
        object["missing"] = nil
        #expect(object.keys == ["a", "c"])
        object["b"] = 2
        #expect(object.keys == ["a", "c", "b"])
    }

    @Test func presentNullIsNotAbsent() throws {
        let object = try #require(try parse(#"{"challengeMetadata":null}"#).objectValue)
        #expect(object["challengeMetadata"] == .some(.null))
        #expect(object["challengeMetadata"]?.isNull == true)
        #expect(object["answerCorrect"] == nil)

        var edited = object
        edited["answerCorrect"] = .null
        #expect(JSONValue.object(edited).text() == #"{"challengeMetadata":null,"answerCorrect":null}"#)
        #expect(edited != object)
        #expect(JSONValue.object(JSONObject()) != ["challengeMetadata": nil])
    }

    @Test func equalityIgnoresMemberOrderButNotContent() throws {
        #expect(try parse(#"{"a":1,"b":[2,{"c":3,"d":4}]}"#) == parse(#"{"b":[2,{"d":4,"c":3}],"a":1}"#))
        #expect(try parse(#"{"a":1}"#) != parse(#"{"a":2}"#))
        #expect(try parse(#"{"a":1}"#) != parse(#"{"a":1,"b":1}"#))
        #expect(try parse(#"{"a":1,"b":1}"#) != parse(#"{"a":1}"#))
        #expect(try parse(#"{"a":1}"#) != parse(#"{"b":1}"#))
        #expect(try parse(#"{"a":null}"#) != parse(#"{"b":null}"#))
        // Arrays, unlike objects, are ordered.
        #expect(try parse("[1,2]") != parse("[2,1]"))
    }

    @Test func duplicateKeysInInputKeepTheLastValue() throws {
        let value = try parse(#"{"a":1,"b":2,"a":3}"#)
        let object = try #require(value.objectValue)
        #expect(object.count == 2)
        #expect(object["a"] == 3)
        #expect(object.keys == ["a", "b"])
        #expect(value.text() == #"{"a":3,"b":2}"#)
    }

    @Test func initializerFromPairsKeepsTheLastOfDuplicates() {
        let object = JSONObject([("x", 1), ("y", 2), ("x", 3)])
        #expect(object.keys == ["x", "y"])
        #expect(object["x"] == 3)
    }

    @Test func keysAreComparedScalarByScalar() throws {
        // "é" and "e" + combining acute are equal Swift strings but different JSON keys.
        let value = try parse(#"{"é":1,"e\u0301":2,"E":3}"#)
        var object = try #require(value.objectValue)
        #expect(object.count == 3)
        #expect(object["é"] == 1)
        #expect(object["e\u{301}"] == 2)
        #expect(object["e"] == nil)
        #expect(object["E"] == 3)
        object["e\u{301}"] = nil
        #expect(object.keys == ["é", "E"])
        #expect(value != (try parse(#"{"e\u0301":1,"é":2,"E":3}"#)))
    }

    @Test func stringsAreComparedScalarByScalar() {
        #expect(JSONValue.string("é") != .string("e\u{301}"))
        #expect(JSONValue.string("é") == .string("\u{E9}"))
        #expect(JSONValue.array(["e\u{301}"]) != ["é"])
    }

    @Test func accessorsAnswerOnlyForTheirOwnType() {
        let values: [JSONValue] = [nil, true, 1, "s", [1], ["k": 1]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "string", "array", "object"])
        #expect(values.map(\.isNull) == [true, false, false, false, false, false])
        #expect(values.map { $0.boolValue != nil } == [false, true, false, false, false, false])
        #expect(values.map { $0.stringValue != nil } == [false, false, false, true, false, false])
        #expect(values.map { $0.arrayValue != nil } == [false, false, false, false, true, false])
        #expect(values.map { $0.objectValue != nil } == [false, false, false, false, false, true])
        #expect(JSONValue.string("s").stringValue == "s")
        #expect(JSONValue.bool(false).boolValue == false)
        #expect(JSONValue.array([1]).arrayValue == [1])
    }
}
