import ChallengeFlows
import LosslessJSON
import Testing

@Suite("Event variants seen in the wild (DESIGN.md §2)")
struct EventVariantTests {
    @Test("userNotFound absent reads as false; present true reads as true")
    func userNotFound() throws {
        let absent = EventText.define(request: #"{"userAttributes":{},"session":[]}"#)
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(absent))
        #expect(event.request.userNotFound == false)
        #expect(event.json.compactText == absent)

        let present = EventText.define(request: #"{"userAttributes":{},"session":[],"userNotFound":true}"#)
        #expect(try DefineAuthChallengeEvent(parsing: EventText.bytes(present)).request.userNotFound)
    }

    @Test("clientMetadata absent is nil; present is read")
    func clientMetadata() throws {
        let absent = try VerifyAuthChallengeResponseEvent(parsing: EventText.bytes(EventText.verify()))
        #expect(absent.request.clientMetadata == nil)

        let request = #"{"privateChallengeParameters":{},"challengeAnswer":"x","clientMetadata":{"app":"web"}}"#
        let present = try VerifyAuthChallengeResponseEvent(parsing: EventText.bytes(EventText.verify(request: request)))
        #expect(present.request.clientMetadata == ["app": "web"])
        #expect(present.request.userAttributes.isEmpty)
    }

    @Test("an empty, null or absent session is an empty list", arguments: [
        #"{"userAttributes":{},"session":[]}"#,
        #"{"userAttributes":{},"session":null}"#,
        #"{"userAttributes":{}}"#,
    ])
    func emptySession(request: String) throws {
        let text = EventText.define(request: request)
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.request.session.isEmpty)
        #expect(event.json.compactText == text)
    }

    @Test("a UTF-8 byte-order mark before the event is accepted")
    func byteOrderMark() throws {
        let text = EventText.create()
        let event = try AuthChallengeEvent(parsing: [0xEF, 0xBB, 0xBF] + EventText.bytes(text))
        guard case .create(let create) = event else {
            Issue.record("expected a Create event, got \(event.header.triggerSource)")
            return
        }
        #expect(create.request.challengeName == .customChallenge)
        // What goes back to Cognito is the event itself, without the mark.
        #expect(event.json.compactText == text)
    }

    @Test("challenge names this package does not use are kept as they are")
    func unknownChallengeNames() throws {
        let names = [
            "CUSTOM_CHALLENGE", "SRP_A", "PASSWORD_VERIFIER", "SMS_MFA", "SOFTWARE_TOKEN_MFA", "DEVICE_SRP_AUTH",
            "DEVICE_PASSWORD_VERIFIER", "ADMIN_NO_SRP_AUTH", "SOMETHING_NEW_2030",
        ]
        let session = "[" + names.map { #"{"challengeName":"\#($0)","challengeResult":true,"challengeMetadata":null}"# }
            .joined(separator: ",") + "]"
        let text = EventText.define(request: EventText.defineRequest(session: session))
        let event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.request.session.map(\.challengeName.rawValue) == names)
        #expect(event.request.session.allSatisfy { $0.challengeResult })
        #expect(event.json.compactText == text)
    }

    @Test("an unknown challenge name in Create's request is kept too")
    func unknownCreateChallengeName() throws {
        let request = #"{"userAttributes":{},"challengeName":"SMS_MFA","session":[]}"#
        let event = try CreateAuthChallengeEvent(parsing: EventText.bytes(EventText.create(request: request)))
        #expect(event.request.challengeName == ChallengeName(rawValue: "SMS_MFA"))
    }

    @Test("triggerSource with or without the _Authentication suffix", arguments: [
        ("DefineAuthChallenge_Authentication", TriggerSource.defineAuthChallenge),
        ("DefineAuthChallenge", .defineAuthChallenge),
        ("CreateAuthChallenge_Authentication", .createAuthChallenge),
        ("CreateAuthChallenge", .createAuthChallenge),
        ("VerifyAuthChallengeResponse_Authentication", .verifyAuthChallengeResponse),
        ("VerifyAuthChallengeResponse", .verifyAuthChallengeResponse),
    ])
    func triggerSourceSuffix(value: String, expected: TriggerSource) throws {
        let request: String
        switch expected {
        case .defineAuthChallenge: request = EventText.defineRequest()
        case .createAuthChallenge: request = EventText.createRequest()
        case .verifyAuthChallengeResponse: request = EventText.verifyRequest()
        }
        let text = EventText.event(trigger: value, request: request)
        let event = try AuthChallengeEvent(parsing: EventText.bytes(text))
        #expect(event.header.triggerSource == expected)
        // The short name is what Cognito sent, so it is what goes back.
        #expect(event.json.compactText == text)
        switch (event, expected) {
        case (.define, .defineAuthChallenge), (.create, .createAuthChallenge),
            (.verify, .verifyAuthChallengeResponse):
            break
        default:
            Issue.record("\(value) dispatched to the wrong event type")
        }
    }

    @Test("the header is read into typed fields; callerContext may be missing")
    func header() throws {
        let event = try AuthChallengeEvent(parsing: EventText.bytes(EventText.verify()))
        #expect(event.header.version == "1")
        #expect(event.header.region == "us-east-1")
        #expect(event.header.userPoolId == "us-east-1_EXAMPLE")
        #expect(event.header.userName == "jane")
        #expect(event.header.callerContext == CallerContext(awsSdkVersion: "aws-sdk-js-3.0.0", clientId: "3example0client0id0abc123"))
        // Read from the bytes when asked for, and set like any field.
        var header = event.header
        header.callerContext.clientId = "another"
        #expect(header.callerContext == CallerContext(awsSdkVersion: "aws-sdk-js-3.0.0", clientId: "another"))
        #expect(header != event.header)

        let bare = #"{"triggerSource":"DefineAuthChallenge","userName":"x","request":{},"response":{}}"#
        let bareEvent = try AuthChallengeEvent(parsing: EventText.bytes(bare))
        #expect(bareEvent.header.callerContext == CallerContext())
        #expect(bareEvent.header.version == nil)
        #expect(bareEvent.json.compactText == bare)
    }

    @Test("a missing or null response reads as empty and is written back as an object")
    func missingResponse() throws {
        let text = #"{"triggerSource":"DefineAuthChallenge","userName":"x","request":{"session":[]}"#
        var event = try DefineAuthChallengeEvent(parsing: EventText.bytes(text + "}"))
        #expect(event.response == DefineAuthChallengeResponse())
        event.response.failAuthentication = true
        #expect(event.json.compactText == text + #","response":{"challengeName":null,"failAuthentication":true}}"#)

        let null = try DefineAuthChallengeEvent(parsing: EventText.bytes(text + #","response":null}"#))
        #expect(null.response == DefineAuthChallengeResponse())
    }

    @Test("session entries decode with their metadata and encode as Cognito writes them")
    func sessionEntries() throws {
        let session = #"[{"challengeName":"CUSTOM_CHALLENGE","challengeResult":false,"challengeMetadata":"EMAIL_CODE:0:1:ab"}]"#
        let event = try CreateAuthChallengeEvent(
            parsing: EventText.bytes(EventText.create(request: EventText.createRequest(session: session))))
        let entry = try #require(event.request.session.first)
        #expect(entry == SessionEntry(challengeName: .customChallenge, challengeResult: false, challengeMetadata: "EMAIL_CODE:0:1:ab"))
        #expect(entry.json == (try JSONValue(parsing: String(session.dropFirst().dropLast()))))
    }
}
