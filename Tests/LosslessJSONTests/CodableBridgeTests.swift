import Foundation
import LosslessJSON
import Testing

@Suite struct CodableBridgeTests {
    /// A document whose number literals are the ones Foundation writes, so everything can survive exactly.
    static let document = #"""
        {"version":"1","flag":true,"off":false,"nothing":null,"count":42,"negative":-7,"ratio":0.25,
         "text":"quote \" backslash \\ newline \n é 😀","empty":{},"none":[],
         "session":[{"challengeName":"SRP_A","challengeResult":true,"challengeMetadata":null},[1,[2,[3]]]]}
        """#

    @Test func foundationCodersCarryAValueUnchanged() throws {
        let value = try parse(Self.document)
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == value)
        // What Foundation wrote is JSON that means the same to our own parser.
        #expect(try JSONValue(parsing: Array(encoded)) == value)
    }

    @Test func foundationOutputDecodesToWhatOurParserReads() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(Self.document.utf8))
        #expect(decoded == (try parse(Self.document)))
    }

    @Test(arguments: ["null", "true", "0", "-12", #""s""#, "[]", "{}", "1.5"])
    func topLevelFragmentsTravelToo(text: String) throws {
        let value = try parse(text)
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoded) == value)
    }

    /// Codable coders hand over numbers as Int or Double, so literal spelling is lost; the magnitude must not be.
    @Test(arguments: ["1.0", "1e3", "-1.5E-7", "-0", "0.000001", "1E+2", "9007199254740993"])
    func numbersInOtherSpellingsKeepTheirValue(literal: String) throws {
        let original = try parse(literal)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(literal.utf8))
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(original))
        for value in [decoded, encoded] {
            guard case .number(let number) = value, case .number(let expected) = original else {
                Issue.record("\(literal) came back as \(value.typeName)")
                continue
            }
            #expect(number.doubleValue == expected.doubleValue)
            #expect(try JSONValue(parsing: value.serialized()) == value, "the literal must stay valid JSON")
        }
    }

    @Test func objectsDecodedThroughCodableHaveEveryMember() throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"b":1,"a":{"d":null,"c":[]}}"#.utf8))
        let object = try #require(decoded.objectValue)
        #expect(Set(object.keys) == ["a", "b"])
        #expect(object["a"]?.objectValue?["d"] == .some(.null))
        #expect(object["a"]?.objectValue?["c"] == [])
    }

    @Test func aStringThatADecoderCallsAFloatStaysAString() throws {
        // With this strategy Foundation will also hand "inf" over as a Double; a number literal
        // "inf" would make the value write invalid JSON.
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let decoded = try decoder.decode(JSONValue.self, from: Data(#"["inf","-inf","nan",1.5]"#.utf8))
        let onePointFive = try parse("1.5")
        #expect(decoded == ["inf", "-inf", "nan", onePointFive])
        #expect(try JSONValue(parsing: decoded.serialized()) == decoded)
    }

    @Test func valuesNestInsideCodableTypes() throws {
        struct Envelope: Codable, Equatable {
            var id: Int
            var payload: JSONValue
        }
        let envelope = Envelope(id: 3, payload: ["k": [true, nil, "v"]])
        let data = try JSONEncoder().encode(envelope)
        #expect(try JSONDecoder().decode(Envelope.self, from: data) == envelope)
    }
}
