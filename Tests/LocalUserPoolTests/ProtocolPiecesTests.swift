import LocalUserPool
import LosslessJSON
import Testing

@Suite("The JSON protocol's pieces")
struct ProtocolPiecesTests {
    @Test("request fields: strings, maps and attribute lists, with Cognito's errors for the wrong shapes")
    func requestBody() throws {
        let body = try RequestBody(parsing: Array("""
            {"ClientId": "abc", "AuthParameters": {"USERNAME": "jane"}, "Permanent": true,
             "UserAttributes": [{"Name": "email", "Value": "a@b.c"}], "Count": 3, "Bad": {"X": 1}}
            """.utf8))
        #expect(try body.string("ClientId") == "abc")
        #expect(try body.stringMap("AuthParameters") == ["USERNAME": "jane"])
        #expect(try body.stringMap("Absent") == nil)
        #expect(try body.attributes("UserAttributes") == ["email": "a@b.c"])
        #expect(try body.bool("Permanent", default: false))
        #expect(try body.bool("Absent", default: false) == false)
        #expect(throws: PoolError(.invalidParameter, "Missing required parameter \"Session\".")) { try body.string("Session") }
        #expect(throws: PoolError(.serialization, "The field \"Count\" is a JSON number, not a string.")) { try body.string("Count") }
        #expect(throws: PoolError(.serialization, "The value of \"Bad.X\" is a JSON number, not a string.")) { try body.stringMap("Bad") }
        #expect(try RequestBody(parsing: []).optionalString("Anything") == nil)
        #expect(throws: PoolError.self) { try RequestBody(parsing: Array("[1]".utf8)) }
        #expect(throws: PoolError.self) { try RequestBody(parsing: Array("{".utf8)) }
    }

    @Test("an error is HTTP 400 with __type, message and x-amzn-ErrorType")
    func errorAnswer() throws {
        let answer = PoolHTTPAnswer(error: .incorrectCredentials)
        #expect(answer.status == 400)
        #expect(answer.headers.contains { $0 == ("x-amzn-ErrorType", "NotAuthorizedException") })
        #expect(answer.headers.contains { $0 == ("Content-Type", "application/x-amz-json-1.1") })
        let body = try JSONValue(parsing: answer.body).objectValue
        #expect(body?["__type"] == "NotAuthorizedException")
        #expect(body?["message"] == "Incorrect username or password.")
    }

    @Test("the operation comes from X-Amz-Target")
    func operationFromTarget() {
        #expect(PoolHTTPAnswer.operation(target: "AWSCognitoIdentityProviderService.InitiateAuth") == "InitiateAuth")
        #expect(PoolHTTPAnswer.operation(target: "DynamoDB_20120810.GetItem") == nil)
        #expect(PoolHTTPAnswer.operation(target: "AWSCognitoIdentityProviderService.") == nil)
        #expect(PoolHTTPAnswer.operation(target: nil) == nil)
    }

    @Test("the password policy names the first rule a password breaks")
    func passwordPolicy() throws {
        try PasswordPolicy.template.check("Correct-Horse-9")
        #expect(throws: PoolError(.invalidPassword, "Password did not conform with policy: Password not long enough")) {
            try PasswordPolicy.template.check("Short-1")
        }
        #expect(throws: PoolError(.invalidPassword, "Password did not conform with policy: Password must have numeric characters")) {
            try PasswordPolicy.template.check("No-Numbers-Here")
        }
    }

    @Test("the auth flows each need their ALLOW_ setting")
    func flowPermissions() {
        let flows = ClientAuthFlows(["ALLOW_CUSTOM_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
        #expect(flows.permits(.customAuth) && flows.permits(.refreshToken) && flows.permits(.refreshTokenAuth))
        #expect(!flows.permits(.userSRPAuth) && !flows.permits(.userPasswordAuth) && !flows.permits(.adminNoSRPAuth))
    }
}
