import ChallengeFlows
import LosslessJSON
import Testing

@Suite("Events read straight from their bytes agree with the tree decoder")
struct DirectReadingTests {
    /// The event through the tree, as every event was read before the direct reader.
    private func throughTree(_ bytes: [UInt8]) throws(EventDecodingError) -> AuthChallengeEvent {
        try AuthChallengeEvent(document: ParsedDocument(parsingEvent: bytes))
    }

    /// The error reading `bytes` through the tree gives; nil (with an issue) when they read.
    private func treeError(_ bytes: [UInt8]) -> EventDecodingError? {
        do {
            _ = try throughTree(bytes)
            Issue.record("the tree read an event that should not read")
            return nil
        } catch {
            return error
        }
    }

    /// The event with a response filled in, as a handler fills it.
    private func responded(_ event: AuthChallengeEvent) -> AuthChallengeEvent {
        switch event {
        case .define(var define):
            define.response = DefineAuthChallengeResponse(issueTokens: true, failAuthentication: false)
            return .define(define)
        case .create(var create):
            create.response = CreateAuthChallengeResponse(
                publicChallengeParameters: ["step": "1"], privateChallengeParameters: ["seal": "s\"\\"],
                challengeMetadata: "meta")
            return .create(create)
        case .verify(var verify):
            verify.response = VerifyAuthChallengeResponseResponse(answerCorrect: true)
            return .verify(verify)
        }
    }

    /// Expects the same header, request and response, the same whole event, and the same bytes written back with
    /// and without a response filled in.
    private func expectSame(_ direct: AuthChallengeEvent, _ tree: AuthChallengeEvent) {
        #expect(direct.header == tree.header)
        switch (direct, tree) {
        case (.define(let left), .define(let right)):
            #expect(left.request == right.request && left.response == right.response)
        case (.create(let left), .create(let right)):
            #expect(left.request == right.request && left.response == right.response)
        case (.verify(let left), .verify(let right)):
            #expect(left.request == right.request && left.response == right.response)
        default:
            Issue.record("read as \(direct.header.triggerSource) and \(tree.header.triggerSource)")
        }
        #expect(direct.json == tree.json)
        #expect(direct.serialized() == tree.serialized())
        #expect(responded(direct).serialized() == responded(tree).serialized())
    }

    static let escapedUserName = #"j\u00e9r\u00f4me \"q\" \/ \n \ud83d\ude00"#

    @Test("events read directly, as the tree reads them", arguments: [
        EventText.define(), EventText.create(), EventText.verify(),
        LosslessRoundTripTests.defineWithUnknownKeys,
        // Escapes in values and in keys, at the root and in a map; text other than ASCII as it is.
        EventText.event(trigger: "CreateAuthChallenge_Authentication", userName: escapedUserName, request: EventText.createRequest()),
        EventText.define().replacing(#""userName":"#, with: #""user\u004eame":"#),
        EventText.verify(request: #"{"userAttributes":{"\u0065mail":"a@b.c","name":"Zoë 中文 😀"},"#
            + #""privateChallengeParameters":{"challenge":"EMAIL_CODE"},"challengeAnswer":"12\/34"}"#),
        // Unknown members nested deep, numbers in every form, and a member of an unknown name given twice.
        EventText.event(
            trigger: "DefineAuthChallenge", request: EventText.defineRequest(),
            extra: #","x":[[[{"y":{"z":[1e5,-0.0,true,null,"\u0000",{}]}}]]],"x":{"a":[]}"#),
        // Nulls where fields are optional, a null map member, white space, members in another order.
        EventText.create(
            request: #"{ "clientMetadata" : {"a":null,"b":"1"} , "session":[{"challengeResult":null,"#
                + #""challengeName":"SRP_A","challengeMetadata":null}], "userAttributes":null, "challengeName":"X" }"#,
            response: "null"),
        // Response members a trigger reads, one spelt with an escape, beside members it does not read and nested ones.
        EventText.define(response: #"{"challengeName":null,"x":{"answerCorrect":[1]},"issue\u0054okens":true,"#
            + #""failAuthentication":false,"challengeNam":"short","answerCorrect":"other trigger's"}"#),
        EventText.create(response: #"{"publicChallengeParameters":{"a":"1"},"privateChallengeParameters":null,"#
            + #""challengeMetadata":"m","issueTokens":7}"#),
        // Each trigger by its short name.
        EventText.event(trigger: "CreateAuthChallenge", request: EventText.createRequest()),
        // A caller context (read only when asked for) with escapes, a null, members of its own unknown, and none.
        EventText.event(
            trigger: "DefineAuthChallenge", callerContext: #"{"x":{"clientId":1},"clientId":"c\u00e9\/1","awsSdkVersion":null}"#,
            request: EventText.defineRequest()),
        EventText.event(trigger: "DefineAuthChallenge", callerContext: "{}", request: EventText.defineRequest()),
        #"{"request":{"privateChallengeParameters":{},"challengeAnswer":""},"response":{"answerCorrect":false},"#
            + #""callerContext":null,"userName":"u","triggerSource":"VerifyAuthChallengeResponse","version":null}"#,
    ])
    func readsDirectly(text: String) throws {
        let bytes = EventText.bytes(text)
        let direct = try #require(AuthChallengeEvent(readingDirectly: bytes))
        expectSame(direct, try throughTree(bytes))
        expectSame(try AuthChallengeEvent(parsing: bytes), direct)
    }

    @Test("an event with a byte-order mark reads directly and is answered with plain JSON")
    func byteOrderMark() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + EventText.bytes(EventText.verify())
        let direct = try #require(AuthChallengeEvent(readingDirectly: bytes))
        expectSame(direct, try throughTree(bytes))
        #expect(responded(direct).serialized().first == UInt8(ascii: "{"))
    }

    @Test("events left to the tree, which reads them as before", arguments: [
        // The tree keeps the last of a member given twice; the direct reader does not guess.
        EventText.define().replacing(#""userName":"jane""#, with: #""userName":"x","userName":"jane""#),
        EventText.define(request: #"{"userAttributes":{"email":"a@b.c","email":"d@e.f"}}"#),
        EventText.define(request: #"{"userAttributes":{"email":"a@b.c","email":null}}"#),
        EventText.event(
            trigger: "DefineAuthChallenge", callerContext: #"{"clientId":"a","clientId":"b"}"#,
            request: EventText.defineRequest()),
        EventText.define(response: #"{},"response":{"challengeName":"X"}"#),
        EventText.verify(response: #"{"answerCorrect":null,"answerCorrect":true}"#),
        EventText.define(response: #"{"x":1,"y":2,"\u0078":3}"#),
        // No response member: the response is written after the rest of the event.
        #"{"userName":"jane","triggerSource":"DefineAuthChallenge_Authentication","request":{}}"#,
        // A field another trigger reads, of a type that one would refuse.
        EventText.define(request: #"{"challengeAnswer":5}"#),
    ])
    func leftToTheTree(text: String) throws {
        let bytes = EventText.bytes(text)
        #expect(AuthChallengeEvent(readingDirectly: bytes) == nil)
        expectSame(try AuthChallengeEvent(parsing: bytes), try throughTree(bytes))
    }

    @Test("events that do not read fail with the tree's error", arguments: [
        EventText.define().replacing(#""userName":"jane""#, with: #""userName":42"#),
        EventText.verify(request: #"{"privateChallengeParameters":{},"challengeAnswer":123456}"#),
        EventText.create(request: #"{"session":[null]}"#),
        EventText.create(request: #"{"userAttributes":{"n":1}}"#),
        EventText.event(trigger: "DefineAuthChallenge", callerContext: #"{"clientId":7}"#, request: "{}"),
        EventText.event(trigger: "DefineAuthChallenge", callerContext: "[]", request: "{}"),
        EventText.event(trigger: "PreSignUp_SignUp", request: "{}"),
        EventText.event(trigger: "DefineAuthChallenge_Authentication_Authentication", request: "{}"),
        EventText.event(trigger: "defineAuthChallenge", request: "{}"),
        EventText.event(trigger: "DefineAuthChallenge", request: "{}", extra: #","x":{"bad":"\q"}"#),
        EventText.event(trigger: "DefineAuthChallenge", request: "{}", extra: #","x":[01]"#),
        EventText.event(trigger: "DefineAuthChallenge", request: "{}", extra: #","x":"\ud800""#),
        EventText.event(
            trigger: "DefineAuthChallenge", request: "{}",
            extra: "," + #""x":"# + String(repeating: "[", count: 300) + String(repeating: "]", count: 300)),
        EventText.define() + " x",
        String(EventText.define().dropLast()),
    ])
    func failsAsTheTreeFails(text: String) throws {
        let bytes = EventText.bytes(text)
        #expect(AuthChallengeEvent(readingDirectly: bytes) == nil)
        let expected = try #require(treeError(bytes))
        #expect(throws: expected) { try AuthChallengeEvent(parsing: bytes) }
    }

    @Test("a string that is not UTF-8, in a member nobody reads, fails as in the tree")
    func invalidUTF8() throws {
        let bytes = EventText.bytes(#"{"x":"a"#) + [0xC3]
            + EventText.bytes(#"","userName":"jane","triggerSource":"DefineAuthChallenge","request":{},"response":{}}"#)
        #expect(AuthChallengeEvent(readingDirectly: bytes) == nil)
        let expected = try #require(treeError(bytes))
        #expect(throws: expected) { try AuthChallengeEvent(parsing: bytes) }
    }
}
