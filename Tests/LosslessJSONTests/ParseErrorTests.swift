import LosslessJSON
import Testing

/// One malformed input and what the parser must say about it.
struct MalformedCase: CustomTestStringConvertible, Sendable {
    let input: [UInt8]
    let path: String
    let offset: Int
    let reason: String

    init(_ input: String, _ path: String, _ offset: Int, _ reason: String) {
        self.init(bytes: Array(input.utf8), path, offset, reason)
    }

    init(bytes: [UInt8], _ path: String, _ offset: Int, _ reason: String) {
        self.input = bytes
        self.path = path
        self.offset = offset
        self.reason = reason
    }

    var testDescription: String { String(decoding: input, as: UTF8.self).debugDescription }
}

@Suite struct ParseErrorTests {
    static let cases: [MalformedCase] = [
        // Nothing there.
        MalformedCase("", "$", 0, "the input is empty"),
        MalformedCase(" \n\t", "$", 3, "the input is empty"),
        MalformedCase(bytes: [0xEF, 0xBB, 0xBF], "$", 3, "the input is empty"),
        // Truncated.
        MalformedCase(#"{"a":1"#, "$", 6, "the input ends inside an object"),
        MalformedCase(#"{"a":"#, "$.a", 5, "the input ends where a value was expected"),
        MalformedCase(#"{"a""#, "$", 4, #"expected ':' after member name "a", found end of input"#),
        MalformedCase(#"{"#, "$", 1, "expected a member name in quotes, found end of input"),
        MalformedCase(#"[1,2"#, "$", 4, "the input ends inside an array"),
        MalformedCase(#"[1,"#, "$[1]", 3, "the input ends where a value was expected"),
        MalformedCase(#"["abc"#, "$[0]", 1, "the input ends inside a string"),
        MalformedCase(#"{"ke"#, "$", 1, "the input ends inside a string"),
        MalformedCase(#""ab\"#, "$", 4, "the input ends inside an escape sequence"),
        MalformedCase(#""\u00"#, "$", 5, #"the input ends inside a \u escape"#),
        // Something after the value.
        MalformedCase(#"{"a":1}x"#, "$", 7, "unexpected 'x' after the end of the value"),
        MalformedCase(#"{} {}"#, "$", 3, "unexpected '{' after the end of the value"),
        MalformedCase("1 2", "$", 2, "unexpected '2' after the end of the value"),
        MalformedCase(bytes: Array("null".utf8) + [0x00], "$", 4, "unexpected byte 0x00 after the end of the value"),
        // Not a value.
        MalformedCase("tru", "$", 0, "expected the literal 'true'"),
        MalformedCase("[truE]", "$[0]", 1, "expected the literal 'true'"),
        MalformedCase(#"{"a":nul}"#, "$.a", 5, "expected the literal 'null'"),
        MalformedCase("falsy", "$", 0, "expected the literal 'false'"),
        MalformedCase("True", "$", 0, "unexpected 'T' where a value was expected"),
        MalformedCase("'a'", "$", 0, "unexpected ''' where a value was expected"),
        MalformedCase("+1", "$", 0, "unexpected '+' where a value was expected"),
        MalformedCase(".5", "$", 0, "unexpected '.' where a value was expected"),
        MalformedCase("NaN", "$", 0, "unexpected 'N' where a value was expected"),
        MalformedCase(bytes: [0xFF], "$", 0, "unexpected byte 0xFF where a value was expected"),
        // Numbers.
        MalformedCase("01", "$", 1, "a number may not have a leading zero"),
        MalformedCase(#"{"n":-012}"#, "$.n", 7, "a number may not have a leading zero"),
        MalformedCase("-", "$", 1, "a number needs a digit after '-'"),
        MalformedCase("-a", "$", 1, "a number needs a digit after '-'"),
        MalformedCase("[-]", "$[0]", 2, "a number needs a digit after '-'"),
        MalformedCase("1.", "$", 2, "a number needs a digit after '.'"),
        MalformedCase("1.e5", "$", 2, "a number needs a digit after '.'"),
        MalformedCase("1e", "$", 2, "a number needs a digit in its exponent"),
        MalformedCase("1E+", "$", 3, "a number needs a digit in its exponent"),
        MalformedCase("[1e-x]", "$[0]", 4, "a number needs a digit in its exponent"),
        // Strings.
        MalformedCase("\"a\tb\"", "$", 2, "a control character (0x09) must be escaped inside a string"),
        MalformedCase("\"a\\nb\nc\"", "$", 5, "a control character (0x0A) must be escaped inside a string"),
        MalformedCase(bytes: Array(#"["x"#.utf8) + [0x00] + Array(#""]"#.utf8), "$[0]", 3,
                      "a control character (0x00) must be escaped inside a string"),
        MalformedCase(#""\x""#, "$", 1, #"unknown escape sequence '\x'"#),
        MalformedCase(#""\U00e9""#, "$", 1, #"unknown escape sequence '\U'"#),
        MalformedCase("\"\\\n\"", "$", 1, #"unknown escape sequence: '\' followed by byte 0x0A"#),
        MalformedCase(bytes: [0x22, 0x5C, 0xC3, 0xA9, 0x22], "$", 1, #"unknown escape sequence: '\' followed by byte 0xC3"#),
        MalformedCase(#""\u12G4""#, "$", 5, #"a \u escape needs four hexadecimal digits"#),
        MalformedCase(#""\u12""#, "$", 5, #"a \u escape needs four hexadecimal digits"#),
        MalformedCase(#""\u""#, "$", 3, #"a \u escape needs four hexadecimal digits"#),
        MalformedCase(#""\ud83d""#, "$", 7, "a high surrogate escape is not followed by a low surrogate"),
        MalformedCase(#""\ud83dx""#, "$", 7, "a high surrogate escape is not followed by a low surrogate"),
        MalformedCase(#""\ud83d\u0041""#, "$", 13, "a high surrogate escape is not followed by a low surrogate"),
        MalformedCase(#""\ud83d\ud83d""#, "$", 13, "a high surrogate escape is not followed by a low surrogate"),
        MalformedCase(#""\ude00""#, "$", 7, "a low surrogate escape has no high surrogate before it"),
        MalformedCase(#""\ude00\ud83d""#, "$", 7, "a low surrogate escape has no high surrogate before it"),
        // Bytes that are not UTF-8.
        MalformedCase(bytes: [0x22, 0xC3, 0x28, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x22, 0xFF, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x22, 0xC0, 0xAF, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x22, 0xF0, 0x9F, 0x98, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x5B, 0x22, 0x5C, 0x6E, 0xE9, 0x22, 0x5D], "$[0]", 2, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x22, 0xC3, 0x5C, 0x75, 0x30, 0x30, 0x41, 0x39, 0x22], "$", 1, "a string is not valid UTF-8"),
        MalformedCase(bytes: [0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "$", 2, "a string is not valid UTF-8"),
        // Punctuation.
        MalformedCase(#"{"a" 1}"#, "$", 5, #"expected ':' after member name "a", found '1'"#),
        MalformedCase(#"{"a"=1}"#, "$", 4, #"expected ':' after member name "a", found '='"#),
        MalformedCase(#"{"a":1 "b":2}"#, "$", 7, #"expected ',' or '}' in an object, found '"'"#),
        MalformedCase(#"{"a":1]"#, "$", 6, "expected ',' or '}' in an object, found ']'"),
        MalformedCase("[1 2]", "$", 3, "expected ',' or ']' in an array, found '2'"),
        MalformedCase(#"[1}"#, "$", 2, "expected ',' or ']' in an array, found '}'"),
        MalformedCase(#"{"a":1,}"#, "$", 7, "expected a member name in quotes, found '}'"),
        MalformedCase("[1,]", "$[1]", 3, "unexpected ']' where a value was expected"),
        MalformedCase("[,1]", "$[0]", 1, "unexpected ',' where a value was expected"),
        MalformedCase("{a:1}", "$", 1, "expected a member name in quotes, found 'a'"),
        MalformedCase("{1:1}", "$", 1, "expected a member name in quotes, found '1'"),
        // Paths name the place in an event.
        MalformedCase(
            #"{"request":{"session":[{"challengeResult":true},{"challengeResult":tru}]}}"#,
            "$.request.session[1].challengeResult", 67, "expected the literal 'true'"),
        MalformedCase(#"{"a":[{"b":[0,[1,01]]}]}"#, "$.a[0].b[1][1]", 18, "a number may not have a leading zero"),
        MalformedCase(#"{"a":{"b":"x" "c":1}}"#, "$.a", 14, #"expected ',' or '}' in an object, found '"'"#),
    ]

    @Test(arguments: cases)
    func malformedInputIsRejectedWithPlaceAndReason(_ malformed: MalformedCase) throws {
        let error = try #require(parseError(malformed.input))
        #expect(error.path == malformed.path)
        #expect(error.reason == malformed.reason)
        #expect(error.offset == malformed.offset)
        #expect(error.description == "invalid JSON at \(malformed.path) (byte \(malformed.offset)): \(malformed.reason)")
    }

    @Test func stringInitializerReportsTheSameErrors() throws {
        let expected = try #require(parseError(#"{"a":[1,]}"#))
        #expect(throws: expected) { try JSONValue(parsing: #"{"a":[1,]}"#) }
    }

    // The parser's limit on nesting, which keeps recursion far from the end of the stack.
    static let maximumDepth = 256

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let arrays = String(repeating: "[", count: Self.maximumDepth) + String(repeating: "]", count: Self.maximumDepth)
        #expect(try parse(arrays).text() == arrays)
        let objects = String(repeating: #"{"k":"#, count: Self.maximumDepth - 1) + "{}"
            + String(repeating: "}", count: Self.maximumDepth - 1)
        #expect(try parse(objects).text() == objects)
    }

    @Test func nestingBeyondTheLimitIsAnError() throws {
        let depth = Self.maximumDepth + 1
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let error = try #require(parseError(arrays))
        #expect(error.reason == "nesting is deeper than 256 levels")
        #expect(error.offset == Self.maximumDepth)
        #expect(error.path == "$" + String(repeating: "[0]", count: Self.maximumDepth))

        let objects = String(repeating: #"{"k":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(parseError(objects)?.reason == "nesting is deeper than 256 levels")
    }

    @Test func hostileNestingFailsInsteadOfOverflowingTheStack() {
        let bomb = String(repeating: "[", count: 1_000_000)
        #expect(parseError(bomb)?.reason == "nesting is deeper than 256 levels")
        let objectBomb = String(repeating: #"{"a":"#, count: 200_000)
        #expect(parseError(objectBomb)?.reason == "nesting is deeper than 256 levels")
    }

    @Test func everyProperPrefixOfADocumentIsRejected() {
        let document = Array(#"{"a":[1,-2.5e+3,"x\"\u00e9\ud83d\ude00",true,false,null,{}],"b":{"c":[]}}"#.utf8)
        for length in 0..<document.count {
            guard let error = parseError(Array(document[..<length])) else {
                Issue.record("a prefix of \(length) bytes parsed")
                continue
            }
            #expect((0...length).contains(error.offset), "prefix of \(length) bytes: offset \(error.offset)")
        }
    }
}
