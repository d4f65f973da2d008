import ChallengeFlows
import Foundation
import LosslessJSON
import Testing

@Suite("Events through Foundation's Codable coders")
struct CodableTests {
    @Test("Define through JSONEncoder and JSONDecoder stays equal, unknown keys included")
    func defineThroughFoundation() throws {
        var event = try DefineAuthChallengeEvent(parsing: EventText.bytes(LosslessRoundTripTests.defineWithUnknownKeys))
        event.response = DefineAuthChallengeResponse(challengeName: .customChallenge, issueTokens: false, failAuthentication: false)
        let data = try JSONEncoder().encode(event)
        let decoded = try JSONDecoder().decode(DefineAuthChallengeEvent.self, from: data)
        #expect(decoded == event)
        #expect(decoded.response == event.response)
        #expect(decoded.request == event.request)
        #expect(decoded.header == event.header)
    }

    @Test("Create and Verify through JSONEncoder and JSONDecoder stay equal")
    func createAndVerifyThroughFoundation() throws {
        var create = try CreateAuthChallengeEvent(parsing: EventText.bytes(EventText.create()))
        create.response.publicChallengeParameters = ["challenge": "EMAIL_CODE", "destination": "j***@e***.com"]
        create.response.challengeMetadata = "EMAIL_CODE:0:1:ab"
        let createData = try JSONEncoder().encode(create)
        #expect(try JSONDecoder().decode(CreateAuthChallengeEvent.self, from: createData) == create)

        let verify = try VerifyAuthChallengeResponseEvent(parsing: EventText.bytes(EventText.verify(response: #"{"answerCorrect":null}"#)))
        let verifyData = try JSONEncoder().encode(verify)
        #expect(try JSONDecoder().decode(VerifyAuthChallengeResponseEvent.self, from: verifyData) == verify)
    }

    @Test("what JSONEncoder writes reads back through the lossless parser")
    func foundationOutputParses() throws {
        let event = try CreateAuthChallengeEvent(parsing: EventText.bytes(EventText.create()))
        let data = try JSONEncoder().encode(event)
        #expect(try CreateAuthChallengeEvent(parsing: Array(data)) == event)
    }

    @Test("decoding through Foundation still checks the trigger and names the path")
    func foundationDecodingErrors() throws {
        let data = Data(EventText.define().utf8)
        let error = try #require(throws: EventDecodingError.self) {
            try JSONDecoder().decode(CreateAuthChallengeEvent.self, from: data)
        }
        guard case .wrongType(let path, _, _) = error else {
            Issue.record("expected wrongType, got \(error)")
            return
        }
        #expect(path == "$.triggerSource")
    }
}

@Suite("Event equality is about values, not spelling")
struct EventEqualityTests {
    @Test("numbers compare by value, exactly, while the bytes keep each literal")
    func numberSpelling() throws {
        func event(_ numbers: String) throws -> DefineAuthChallengeEvent {
            try DefineAuthChallengeEvent(parsing: EventText.bytes(EventText.event(
                trigger: "DefineAuthChallenge", request: "{}", extra: #","x-numbers":\#(numbers)"#)))
        }
        let spelled = try event("[1.50,1e3,-0,0.0e5,2.5E-1,12345678901234567890123,-7]")
        let canonical = try event("[1.5,1000,0,0,0.25,12345678901234567890123,-7]")
        #expect(spelled == canonical)
        #expect(spelled.json.compactText.contains("[1.50,1e3,-0,0.0e5,2.5E-1,"))

        #expect(try event("[12345678901234567890123]") != event("[12345678901234567890124]"))
        #expect(try event("[1]") != event("[-1]"))
        #expect(try event("[0.1]") != event("[1]"))
        #expect(try event("[10]") != event("[1]"))
        #expect(try event("[1e2]") != event("[1e3]"))
    }

    @Test("member order does not matter to equality")
    func memberOrder() throws {
        let one = EventText.event(trigger: "DefineAuthChallenge", request: #"{"a":1,"b":2}"#)
        let other = EventText.event(trigger: "DefineAuthChallenge", request: #"{"b":2,"a":1}"#)
        #expect(try DefineAuthChallengeEvent(parsing: EventText.bytes(one)) == DefineAuthChallengeEvent(parsing: EventText.bytes(other)))
    }
}
