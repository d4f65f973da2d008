import ChallengeFlows
import LosslessJSON
import Testing

@Suite("Lossless round trip: an event comes back exactly as it arrived")
struct LosslessRoundTripTests {
    /// Unknown keys at every level, odd number literals and a key order that is not alphabetical.
    static let defineWithUnknownKeys = EventText.event(
        trigger: "DefineAuthChallenge_Authentication",
        callerContext: #"{"x-caller":0.000,"awsSdkVersion":"aws-sdk-js-3.0.0","clientId":"3example0client0id0abc123"}"#,
        request: #"{"userAttributes":{"sub":"5f1c7e2a","custom:tier":"gold"},"#
            + #""session":[{"challengeName":"CUSTOM_CHALLENGE","challengeResult":false,"challengeMetadata":null,"#
            + #""x-entry":{"n":1.50,"e":1e3,"neg":-0}}],"#
            + #""clientMetadata":{"app":"ios"},"userNotFound":false,"x-request":[true,null,"s",2.0E+2]}"#,
        response: #"{"x-response":{"kept":[1,2,3]},"challengeName":null}"#,
        extra: #","x-top":{"nested":{"deeper":[{"z":1,"a":2}]}}"#
    )

    @Test("unknown keys at every level, key order and number literals survive byte for byte")
    func unknownKeysEverywhere() throws {
        let text = Self.defineWithUnknownKeys
        #expect(text.contains("x-caller"))
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.json.compactText == text)
    }

    @Test("each trigger round-trips byte for byte", arguments: [
        EventText.define(), EventText.create(), EventText.verify(),
    ])
    func eachTrigger(text: String) throws {
        let event = try AuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.json.serialized() == EventText.bytes(text))
    }

    @Test("nulls are kept: challengeMetadata null, response fields null")
    func nullsKept() throws {
        let session = #"[{"challengeName":"CUSTOM_CHALLENGE","challengeResult":true,"challengeMetadata":null}]"#
        let define = EventText.define(
            request: EventText.defineRequest(session: session),
            response: #"{"challengeName":null,"issueTokens":null,"failAuthentication":null}"#)
        let decoded = try DefineAuthChallengeEvent(parsing: EventText.bytes(define))
        #expect(decoded.json.compactText == define)
        #expect(decoded.request.session.first?.challengeMetadata == nil)
        #expect(decoded.response == DefineAuthChallengeResponse())

        let create = EventText.create(
            response: #"{"publicChallengeParameters":null,"privateChallengeParameters":null,"challengeMetadata":null}"#)
        #expect(try CreateAuthChallengeEvent(parsing: EventText.bytes(create)).json.compactText == create)

        let verify = EventText.verify(response: #"{"answerCorrect":null}"#)
        let verifyEvent = try VerifyAuthChallengeResponseEvent(parsing: EventText.bytes(verify))
        #expect(verifyEvent.json.compactText == verify)
        #expect(verifyEvent.response.answerCorrect == nil)
    }

    @Test("response {} stays {} until a field is set")
    func emptyResponse() throws {
        let text = EventText.define(response: "{}")
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.json.compactText == text)
        #expect(event.response == DefineAuthChallengeResponse())
    }

    @Test("a pretty-printed event comes back with the same members, order and layout")
    func prettyInput() throws {
        let pretty = try JSONValue(parsing: Self.defineWithUnknownKeys).text(.pretty)
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(pretty))
        #expect(event.json.text(.pretty) == pretty)
    }

    @Test("setting Create response fields replaces those keys in place and keeps unknown response keys")
    func createResponseOverwrite() throws {
        let text = EventText.create(
            response: #"{"publicChallengeParameters":null,"x-keep":{"a":1.0},"challengeMetadata":null}"#)
        var event = try CreateAuthChallengeEvent(parsing: EventText.bytes(text))
        event.response.publicChallengeParameters = ["destination": "j***@e***.com", "challenge": "EMAIL_CODE"]
        event.response.privateChallengeParameters = ["step": "0"]
        event.response.challengeMetadata = "EMAIL_CODE:0:1:ab"

        let expectedResponse =
            #"{"publicChallengeParameters":{"challenge":"EMAIL_CODE","destination":"j***@e***.com"},"#
            + #""x-keep":{"a":1.0},"challengeMetadata":"EMAIL_CODE:0:1:ab","#
            + #""privateChallengeParameters":{"step":"0"}}"#
        let expected = EventText.create(response: expectedResponse)
        #expect(event.json.compactText == expected)
    }

    @Test("setting Define and Verify response fields keeps everything else")
    func defineAndVerifyResponseOverwrite() throws {
        var define = try DefineAuthChallengeEvent(
            parsing: EventText.bytes(EventText.define(response: #"{"issueTokens":null,"x-keep":"v"}"#)))
        define.response = DefineAuthChallengeResponse(
            challengeName: .customChallenge, issueTokens: false, failAuthentication: false)
        #expect(
            define.json.compactText
                == EventText.define(
                    response: #"{"issueTokens":false,"x-keep":"v","challengeName":"CUSTOM_CHALLENGE","#
                        + #""failAuthentication":false}"#))

        var verify = try VerifyAuthChallengeResponseEvent(
            parsing: EventText.bytes(EventText.verify(response: #"{"x-keep":[],"answerCorrect":null}"#)))
        verify.response.answerCorrect = true
        #expect(verify.json.compactText == EventText.verify(response: #"{"x-keep":[],"answerCorrect":true}"#))
    }

    @Test("the request is never rewritten, even when it holds values the typed model normalises")
    func requestUntouched() throws {
        // A null challengeResult reads as false, but the event still says null.
        let session = #"[{"challengeName":"SRP_A","challengeResult":null,"challengeMetadata":null}]"#
        let text = EventText.define(request: EventText.defineRequest(session: session))
        var event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.request.session.first?.challengeResult == false)
        event.response.failAuthentication = true
        #expect(event.json.compactText.contains(#""challengeResult":null"#))
    }

    @Test("serialized() splices the new response into the bytes that came: the rest keeps its layout, byte for byte")
    func serializedSplicesTheResponse() throws {
        func laidOut(response: String) -> String {
            EventText.create(response: response)
                .replacingOccurrences(of: #","request":"#, with: ",\n  \"request\" : ")
                .replacingOccurrences(of: #","response":"#, with: ",\n  \"response\" :  ") + "\n"
        }
        var event = try AuthChallengeEvent(parsing: EventText.bytes(laidOut(response: #"{ "x-keep" : 1.0 }"#)))
        guard case .create(var create) = event else { Issue.record("not a Create event"); return }
        create.response.challengeMetadata = "EMAIL_CODE"
        event = .create(create)

        let expected = laidOut(response: #"{"x-keep":1.0,"challengeMetadata":"EMAIL_CODE"}"#)
        #expect(String(decoding: event.serialized(), as: UTF8.self) == expected)
        #expect(try JSONValue(parsing: event.serialized()) == event.json)
    }

    @Test("serialized() means the same as json for every trigger, with or without a response member", arguments: [
        EventText.define(response: #"{"challengeName":null}"#), EventText.create(), EventText.verify(),
        #"{"version":"1","triggerSource":"DefineAuthChallenge_Authentication","userName":"jane","request":{"session":[]}}"#,
    ])
    func serializedMeansJSON(text: String) throws {
        var event = try AuthChallengeEvent(parsing: EventText.bytes(text))
        if case .define(var define) = event {
            define.response.failAuthentication = true
            event = .define(define)
        }
        #expect(try JSONValue(parsing: event.serialized()) == event.json)
    }

    @Test("an event with two response members is written whole: the response set is the one every reader sees")
    func duplicateResponseWrittenWhole() throws {
        let text = EventText.verify(response: #"{"answerCorrect":null},"response":{"x":1}"#)
        guard case .verify(var verify) = try AuthChallengeEvent(parsing: EventText.bytes(text)) else {
            Issue.record("not a Verify event"); return
        }
        verify.response.answerCorrect = true
        let written = try JSONValue(parsing: AuthChallengeEvent.verify(verify).serialized())
        #expect(written == verify.json)
        #expect(String(decoding: written.serialized(), as: UTF8.self).components(separatedBy: #""response""#).count == 2)
    }
}
