import ChallengeFlows
import LosslessJSON

/// Builds compact event texts the way Cognito writes them, with the parts a test varies spelled out.
enum EventText {
    static let defaultCallerContext = #"{"awsSdkVersion":"aws-sdk-js-3.0.0","clientId":"3example0client0id0abc123"}"#

    /// A whole event: the header fields in Cognito's order, then `extra` members (raw JSON, comma-led), then request
    /// and response.
    static func event(
        trigger: String, userName: String = "jane", callerContext: String = defaultCallerContext, request: String,
        response: String = "{}", extra: String = ""
    ) -> String {
        #"{"version":"1","region":"us-east-1","userPoolId":"us-east-1_EXAMPLE","userName":"\#(userName)","#
            + #""callerContext":\#(callerContext),"triggerSource":"\#(trigger)"\#(extra),"#
            + #""request":\#(request),"response":\#(response)}"#
    }

    static func define(request: String = defineRequest(), response: String = "{}") -> String {
        event(trigger: "DefineAuthChallenge_Authentication", request: request, response: response)
    }

    static func create(request: String = createRequest(), response: String = "{}") -> String {
        event(trigger: "CreateAuthChallenge_Authentication", request: request, response: response)
    }

    static func verify(request: String = verifyRequest(), response: String = "{}") -> String {
        event(trigger: "VerifyAuthChallengeResponse_Authentication", request: request, response: response)
    }

    static let userAttributes = #"{"sub":"5f1c7e2a","email_verified":"true","email":"jane.doe@example.com"}"#

    static func defineRequest(session: String = "[]") -> String {
        #"{"userAttributes":\#(userAttributes),"session":\#(session),"userNotFound":false}"#
    }

    static func createRequest(session: String = "[]") -> String {
        #"{"userAttributes":\#(userAttributes),"challengeName":"CUSTOM_CHALLENGE","session":\#(session),"userNotFound":false}"#
    }

    static func verifyRequest(answer: String = "123456") -> String {
        #"{"userAttributes":\#(userAttributes),"privateChallengeParameters":{"challenge":"EMAIL_CODE"},"#
            + #""challengeAnswer":"\#(answer)","userNotFound":false}"#
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}

extension JSONValue {
    /// The compact text, for comparing byte for byte with an input.
    var compactText: String { text(.compact) }
}
