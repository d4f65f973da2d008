import ChallengeFlows
import LosslessJSON
import Testing

@Suite("Decoding errors name the field path")
struct EventDecodingErrorTests {
    /// Decodes with the dispatching entry point and returns the typed error, recording an issue when there is none.
    private func decodingError(_ text: String) -> EventDecodingError? {
        do {
            let event = try AuthChallengeEvent(parsing: EventText.bytes(text))
            Issue.record("decoded \(event.header.triggerSource) instead of failing")
            return nil
        } catch {
            return error
        }
    }

    @Test("missing userName")
    func missingUserName() throws {
        let text = #"{"triggerSource":"DefineAuthChallenge_Authentication","request":{},"response":{}}"#
        let error = try #require(decodingError(text))
        #expect(error == .missingField(path: "$.userName"))
        #expect(error.description.contains("$.userName"))
    }

    @Test("a null userName is missing too")
    func nullUserName() throws {
        let error = try #require(decodingError(EventText.define().replacing(#""userName":"jane""#, with: #""userName":null"#)))
        #expect(error == .missingField(path: "$.userName"))
    }

    @Test("wrong types name the path, the expected type and the found type", arguments: [
        (
            EventText.define(request: EventText.defineRequest(session: #"[{"challengeName":"SRP_A","challengeResult":true},"#
                + #"{"challengeName":"PASSWORD_VERIFIER","challengeResult":true},"#
                + #"{"challengeName":"CUSTOM_CHALLENGE","challengeResult":"yes"}]"#)),
            EventDecodingError.wrongType(path: "$.request.session[2].challengeResult", expected: "a boolean", found: "string")
        ),
        (
            EventText.define(request: EventText.defineRequest(session: #"[{"challengeName":7,"challengeResult":true}]"#)),
            .wrongType(path: "$.request.session[0].challengeName", expected: "a string", found: "number")
        ),
        (
            EventText.define(request: EventText.defineRequest(session: #"[true]"#)),
            .wrongType(path: "$.request.session[0]", expected: "an object", found: "boolean")
        ),
        (
            EventText.define(request: EventText.defineRequest(session: #"{"0":{}}"#)),
            .wrongType(path: "$.request.session", expected: "an array", found: "object")
        ),
        (
            EventText.define(request: #"{"userAttributes":{"email_verified":true},"session":[]}"#),
            .wrongType(path: "$.request.userAttributes.email_verified", expected: "a string", found: "boolean")
        ),
        (
            EventText.define(request: #"{"session":[],"userNotFound":"false"}"#),
            .wrongType(path: "$.request.userNotFound", expected: "a boolean", found: "string")
        ),
        (
            EventText.create(request: #"{"challengeName":"CUSTOM_CHALLENGE","clientMetadata":[]}"#),
            .wrongType(path: "$.request.clientMetadata", expected: "an object", found: "array")
        ),
        (
            EventText.verify(response: #"{"answerCorrect":"true"}"#),
            .wrongType(path: "$.response.answerCorrect", expected: "a boolean", found: "string")
        ),
        (
            EventText.event(trigger: "DefineAuthChallenge", userName: "jane", request: "{}")
                .replacing(#""userName":"jane""#, with: #""userName":42"#),
            .wrongType(path: "$.userName", expected: "a string", found: "number")
        ),
        (
            EventText.define().replacing(EventText.defaultCallerContext, with: #""ctx""#),
            .wrongType(path: "$.callerContext", expected: "an object", found: "string")
        ),
    ])
    func wrongTypes(text: String, expected: EventDecodingError) throws {
        let error = try #require(decodingError(text))
        #expect(error == expected)
        if case .wrongType(let path, let expectedType, let found) = expected {
            #expect(error.description.contains(path))
            #expect(error.description.contains(expectedType))
            #expect(error.description.contains(found))
        }
    }

    @Test("a request that is not an object, or is absent", arguments: [
        (#""oops""#, EventDecodingError.wrongType(path: "$.request", expected: "an object", found: "string")),
        ("[]", .wrongType(path: "$.request", expected: "an object", found: "array")),
        ("null", .missingField(path: "$.request")),
    ])
    func nonObjectRequest(request: String, expected: EventDecodingError) throws {
        #expect(decodingError(EventText.define(request: request)) == expected)
    }

    @Test("a whole event that is not an object")
    func nonObjectEvent() throws {
        #expect(decodingError("[1,2]") == .wrongType(path: "$", expected: "an object", found: "array"))
    }

    @Test("Verify without an answer or private parameters")
    func verifyMissingFields() throws {
        #expect(
            decodingError(EventText.verify(request: #"{"privateChallengeParameters":{}}"#))
                == .missingField(path: "$.request.challengeAnswer"))
        #expect(
            decodingError(EventText.verify(request: #"{"challengeAnswer":"1"}"#))
                == .missingField(path: "$.request.privateChallengeParameters"))
    }

    @Test("an unknown triggerSource lists the valid ones")
    func unknownTriggerSource() throws {
        let error = try #require(decodingError(EventText.event(trigger: "PreSignUp_SignUp", request: "{}")))
        #expect(error == .unknownTriggerSource("PreSignUp_SignUp"))
        #expect(error.description.contains("PreSignUp_SignUp"))
        for source in TriggerSource.allCases {
            #expect(error.description.contains(source.rawValue))
        }
        // The typed event types refuse it the same way.
        #expect(throws: EventDecodingError.unknownTriggerSource("PreSignUp_SignUp")) {
            try DefineAuthChallengeEvent(parsing: EventText.bytes(EventText.event(trigger: "PreSignUp_SignUp", request: "{}")))
        }
    }

    @Test("a missing triggerSource")
    func missingTriggerSource() throws {
        #expect(decodingError(#"{"userName":"jane","request":{}}"#) == .missingField(path: "$.triggerSource"))
    }

    @Test("malformed JSON wraps the parser's error with its path")
    func malformedJSON() throws {
        let text = #"{"userName":"jane","request":{"session":[{"challengeName":"SRP_A"},"#
        let error = try #require(decodingError(text + "}"))
        guard case .invalidJSON(let parseError) = error else {
            Issue.record("expected invalidJSON, got \(error)")
            return
        }
        #expect(parseError.path == "$.request.session[1]")
        #expect(error.description.contains("$.request.session[1]"))
        #expect(error.description.contains("not valid JSON"))
    }

    @Test("bytes that are not JSON at all, or empty", arguments: ["not json", "", "{\"userName\": \"jane\"} trailing"])
    func notJSON(text: String) throws {
        let error = try #require(decodingError(text))
        guard case .invalidJSON = error else {
            Issue.record("expected invalidJSON, got \(error)")
            return
        }
    }

    @Test("a Define event read as a Create event names triggerSource and both triggers")
    func wrongEventType() throws {
        let error = try #require(throws: EventDecodingError.self) {
            try CreateAuthChallengeEvent(parsing: EventText.bytes(EventText.define()))
        }
        #expect(
            error
                == .wrongType(
                    path: "$.triggerSource", expected: "\"CreateAuthChallenge_Authentication\"",
                    found: "\"DefineAuthChallenge_Authentication\""))
        #expect(error.description.contains("$.triggerSource"))
    }
}
