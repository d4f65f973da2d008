import LosslessJSON
import Testing

@Suite struct RoundTripTests {
    /// Compact documents in the writer's own form: parsing and writing them back must not change a byte.
    @Test(arguments: [
        "null",
        "true",
        "false",
        "0",
        #""""#,
        "{}",
        "[]",
        "[[]]",
        #"{"a":{}}"#,
        #"[{},[],{"":[]}]"#,
        #"{"z":1,"a":2,"m":3}"#,
        #"[0,-0,1.0,-1.5E-7,1e3,1E+2,2.5e-0,0.000001,-12.50]"#,
        #"[123456789012345678901234567890,-9223372036854775809,18446744073709551616]"#,
        #"["\"","\\","\n","\r","\t","\u0000","\u001f","a\"b\\c"]"#,
        #"["é","中文","😀","naïve café","\#u{7F} is DEL, kept raw"]"#,
        #"{"version":"1","triggerSource":"DefineAuthChallenge_Authentication","region":"eu-west-1","userPoolId":"eu-west-1_AbC123","userName":"0f3b-41c2","callerContext":{"awsSdkVersion":"aws-sdk-unknown-unknown","clientId":"4example"},"request":{"userAttributes":{"email":"ana@example.com","email_verified":"true"},"session":[{"challengeName":"SRP_A","challengeResult":true,"challengeMetadata":null},{"challengeName":"CUSTOM_CHALLENGE","challengeResult":false,"challengeMetadata":"EMAIL_CODE-1"}],"userNotFound":false},"response":{"challengeName":null,"issueTokens":null,"failAuthentication":null}}"#,
    ])
    func compactDocumentIsWrittenBackByteForByte(document: String) throws {
        let value = try parse(document)
        #expect(value.serialized(.compact) == Array(document.utf8))
        #expect(value.text() == document)
    }

    @Test func numberLiteralsAreKeptVerbatim() throws {
        let literals = ["0", "-0", "1.0", "1e3", "-1.5E-7", "123456789012345678901234567890", "1E+400", "0.1000"]
        for literal in literals {
            let value = try parse(literal)
            guard case .number(let number) = value else {
                Issue.record("\(literal) parsed as \(value.typeName)")
                continue
            }
            #expect(number.literal == literal)
            #expect(number.description == literal)
        }
    }

    @Test func numberAccessorsConvertTheLiteral() throws {
        #expect(JSONNumber(-42).literal == "-42")
        #expect(JSONNumber(Int.max).intValue == Int.max)
        #expect(try number("1e3").intValue == nil)
        #expect(try number("1e3").doubleValue == 1000)
        #expect(try number("-1.5E-7").doubleValue == -1.5e-7)
        #expect(try number("1.0").intValue == nil)
        #expect(try number("123456789012345678901234567890").intValue == nil)
        #expect(try number("-0").intValue == 0)
    }

    @Test func numbersCompareByValueButWriteBackTheirLiteral() throws {
        #expect(try parse("1.0") == parse("1"))
        #expect(try parse("1e3") == parse("1000"))
        #expect(try parse("-0") == parse("0"))
        #expect(try parse("1.5") != parse("1.05"))
        #expect(try parse("123456789012345678901234567890") != parse("123456789012345678901234567891"))
        #expect(try parse("1.0").text() == "1.0")
        #expect(try parse("1e3").text() == "1e3")
    }

    @Test(arguments: [
        (#""\u00e9""#, "é"),
        (#""\u00E9""#, "é"),
        (#""\/""#, "/"),
        (#""\ud83d\ude00""#, "😀"),
        (#""\uD83D\uDE00 ok""#, "😀 ok"),
        (#""\u0041\u0042""#, "AB"),
        (#""\b\f""#, "\u{8}\u{C}"),
        (#""tab\there""#, "tab\there"),
        (#""\u2028\ufeff""#, "\u{2028}\u{FEFF}"),
    ])
    func escapesAreDecodedAndTheDecodedTextReparsesEqual(input: String, decoded: String) throws {
        let value = try parse(input)
        #expect(value == .string(decoded))
        let written = value.serialized()
        #expect(try JSONValue(parsing: written) == value)
    }

    @Test func controlCharactersAreWrittenAsEscapes() {
        let all = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let text = JSONValue.string(all).text()
        #expect(text.utf8.allSatisfy { $0 >= 0x20 })
        #expect(text.hasPrefix(#""\u0000\u0001"#))
        #expect(text.contains(#"\u0008\t\n\u000b\u000c\r\u000e"#))
    }

    @Test func whiteSpaceIsAcceptedAndDropped() throws {
        let value = try parse(" \t\r\n{ \"a\" : [ 1 , 2 ] ,\n\"b\":\t{ } }\n ")
        #expect(value.text() == #"{"a":[1,2],"b":{}}"#)
    }

    @Test func byteOrderMarkBeforeTheValueIsSkipped() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let value = try JSONValue(parsing: bom + Array(#"{"a":1}"#.utf8))
        #expect(value.text() == #"{"a":1}"#)
        #expect(try JSONValue(parsing: bom + Array(" \n[true]".utf8)) == [true])
        #expect(try JSONValue(parsing: "\u{FEFF}null") == .null)
    }

    @Test func byteOrderMarkAnywhereElseIsAnError() {
        #expect(parseError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("1".utf8))?.offset == 3)
        #expect(parseError(Array(" ".utf8) + [0xEF, 0xBB, 0xBF] + Array("1".utf8))?.offset == 1)
    }

    @Test func inputThatIsNotContiguousParsesToo() throws {
        let bytes = Array(#"{"k":[1,"two",null]}"#.utf8)
        #expect(try JSONValue(parsing: bytes.lazy.map { $0 }) == JSONValue(parsing: bytes))
        #expect(try JSONValue(parsing: bytes[...]) == ["k": [1, "two", nil]])
    }

    @Test func prettyLayoutIndentsByTwoSpaces() throws {
        let value = try parse(#"{"a":1,"b":[true,null,{"c":"d"}],"e":{},"f":[],"g":{"h":{"i":-0.5}}}"#)
        let expected = """
            {
              "a": 1,
              "b": [
                true,
                null,
                {
                  "c": "d"
                }
              ],
              "e": {},
              "f": [],
              "g": {
                "h": {
                  "i": -0.5
                }
              }
            }
            """
        #expect(value.text(.pretty) == expected)
        #expect(try JSONValue(parsing: value.serialized(.pretty)) == value)
    }

    @Test func prettyScalarsAndEmptyContainersStayOnOneLine() {
        #expect(JSONValue.null.text(.pretty) == "null")
        #expect(JSONValue.string("a b").text(.pretty) == #""a b""#)
        #expect(JSONValue.array([]).text(.pretty) == "[]")
        #expect(JSONValue.object(JSONObject()).text(.pretty) == "{}")
    }

    @Test func literalsBuildTheSameValuesAsParsing() throws {
        let built: JSONValue = ["s": "x", "n": 7, "b": false, "z": nil, "a": [1, "2"]]
        #expect(built == (try parse(#"{"s":"x","n":7,"b":false,"z":null,"a":[1,"2"]}"#)))
        #expect(built.text() == #"{"s":"x","n":7,"b":false,"z":null,"a":[1,"2"]}"#)
    }

    private func number(_ literal: String) throws -> JSONNumber {
        guard case .number(let number) = try parse(literal) else { throw NotANumber() }
        return number
    }

    private struct NotANumber: Error {}
}
