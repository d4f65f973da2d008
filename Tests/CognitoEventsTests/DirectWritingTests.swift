import ChallengeFlows
import LosslessJSON
import Testing

@Suite("Responses written straight from their fields give the bytes of the response object")
struct DirectWritingTests {
    /// An event and the response a handler sets on it.
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let respond: @Sendable (inout AuthChallengeEvent) -> Void
        var testDescription: String { text }
    }

    static let manyMembers = (0..<12).map { #""m\#($0)":\#($0)"# }.joined(separator: ",")
    static let longValue = String(repeating: "0123456789abcdef", count: 80)

    static func create(_ response: CreateAuthChallengeResponse) -> @Sendable (inout AuthChallengeEvent) -> Void {
        { event in
            guard case .create(var create) = event else { return }
            create.response = response
            event = .create(create)
        }
    }

    static func define(_ response: DefineAuthChallengeResponse) -> @Sendable (inout AuthChallengeEvent) -> Void {
        { event in
            guard case .define(var define) = event else { return }
            define.response = response
            event = .define(define)
        }
    }

    static func verify(_ response: VerifyAuthChallengeResponseResponse) -> @Sendable (inout AuthChallengeEvent) -> Void {
        { event in
            guard case .verify(var verify) = event else { return }
            verify.response = response
            event = .verify(verify)
        }
    }

    static let cases: [Case] = [
        // As Cognito sends it: every member null, each one replaced in place.
        Case(
            text: EventText.create(
                response: #"{"publicChallengeParameters":null,"privateChallengeParameters":null,"challengeMetadata":null}"#),
            respond: create(
                CreateAuthChallengeResponse(
                    publicChallengeParameters: ["step": "1", "b": "2", "a": "\"quoted\" \\ \n", "é": "ü", "Z": "😀"],
                    privateChallengeParameters: ["seal": "s"], challengeMetadata: "EMAIL_CODE-1"))),
        // Members the response does not set stay as they arrived; the ones it sets but were not there come last.
        Case(
            text: EventText.create(response: #"{"x":[1,{"y":null}],"privateChallengeParameters":{"old":"1"},"z":1.50}"#),
            respond: create(CreateAuthChallengeResponse(privateChallengeParameters: [:], challengeMetadata: "m"))),
        Case(text: EventText.create(response: "{}"), respond: create(CreateAuthChallengeResponse())),
        // A decision without a challenge names none, whatever arrived.
        Case(
            text: EventText.define(response: #"{"challengeName":"CUSTOM_CHALLENGE","issueTokens":null}"#),
            respond: define(DefineAuthChallengeResponse(issueTokens: true, failAuthentication: false))),
        Case(
            text: EventText.define(response: #"{"failAuthentication":null}"#),
            respond: define(DefineAuthChallengeResponse(challengeName: ChallengeName(rawValue: "CUSTOM_CHALLENGE")))),
        Case(text: EventText.define(response: #"{"a":1}"#), respond: define(DefineAuthChallengeResponse())),
        // A null response, or none, is written as an object of what is set.
        Case(text: EventText.verify(response: "null"), respond: verify(VerifyAuthChallengeResponseResponse(answerCorrect: false))),
        Case(
            text: #"{"userName":"jane","triggerSource":"VerifyAuthChallengeResponse","request":{"#
                + #""privateChallengeParameters":{},"challengeAnswer":"1"}}"#,
            respond: verify(VerifyAuthChallengeResponseResponse(answerCorrect: true))),
        // More members than an object keeps without its index, and a text longer than the stack room.
        Case(
            text: EventText.verify(response: "{\(manyMembers),\"answerCorrect\":null}"),
            respond: verify(VerifyAuthChallengeResponseResponse(answerCorrect: true))),
        Case(
            text: EventText.create(response: "{\(manyMembers)}"),
            respond: create(CreateAuthChallengeResponse(publicChallengeParameters: ["long": longValue, "k\u{1}": "v"]))),
        // Read through the tree (a member given twice), and with a byte-order mark.
        Case(
            text: EventText.define().replacing(#""userName":"jane""#, with: #""userName":"x","userName":"jane""#),
            respond: define(DefineAuthChallengeResponse(failAuthentication: true))),
        Case(
            text: "\u{FEFF}" + EventText.create(response: #"{"challengeMetadata":null}"#),
            respond: create(CreateAuthChallengeResponse(challengeMetadata: "m"))),
    ]

    @Test("the same bytes as the response object written as a tree", arguments: cases)
    func sameBytes(testCase: Case) throws {
        var event = try AuthChallengeEvent(parsing: EventText.bytes(testCase.text))
        testCase.respond(&event)
        let throughTree: [UInt8] = switch event {
        case .define(let define): define.serialized()
        case .create(let create): create.serialized()
        case .verify(let verify): verify.serialized()
        }
        let written = event.serialized()
        #expect(written == throughTree)
        #expect(try JSONValue(parsing: written) == event.json)
    }
}
