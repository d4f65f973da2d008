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

    @Test("allowed origins: scheme://host[:port] in lower case; anything else is refused")
    func allowedOrigins() throws {
        #expect(CrossOriginPolicy.normalized("http://localhost:5173") == "http://localhost:5173")
        #expect(CrossOriginPolicy.normalized("HTTPS://App.Example.com/") == "https://app.example.com")
        #expect(CrossOriginPolicy.normalized("http://[::1]:8080") == "http://[::1]:8080")
        for refused in ["*", "null", "localhost:5173", "http://", "http://a/path", "http://a?x", "http://u@a", "http://a:0",
                        "http://a:65536", "http://a:+80", "ftp://a", "http://a:", "http://a b"] {
            #expect(CrossOriginPolicy.normalized(refused) == nil, "\(refused)")
        }
        #expect(throws: CrossOriginPolicy.InvalidOrigin(origin: "*")) { try CrossOriginPolicy(allowing: ["http://localhost:3000", "*"]) }

        let own = CrossOriginPolicy.ownOrigin(host: "127.0.0.1", port: 9229)
        #expect(own.allowedOrigins == ["http://127.0.0.1:9229", "http://localhost:9229"])
        #expect(own.allows("http://localhost:9229") && !own.allows("http://localhost:5173") && !own.allows(nil))
    }

    @Test("CORS headers go to allowed origins only; a preflight lists fixed headers and refuses other origins")
    func crossOriginAnswers() throws {
        let policy = try CrossOriginPolicy(allowing: ["http://localhost:5173"])
        func header(_ answer: PoolHTTPAnswer, _ name: String) -> String? { answer.headers.first { $0.0 == name }?.1 }

        let allowed = PoolHTTPAnswer(result: ["ok": true]).withCrossOriginHeaders(origin: "http://localhost:5173", policy: policy)
        #expect(header(allowed, "Access-Control-Allow-Origin") == "http://localhost:5173")
        #expect(header(allowed, "Vary") == "Origin")
        let foreign = PoolHTTPAnswer(result: ["ok": true]).withCrossOriginHeaders(origin: "https://evil.example", policy: policy)
        #expect(header(foreign, "Access-Control-Allow-Origin") == nil)
        #expect(header(foreign, "Access-Control-Expose-Headers") == nil)
        #expect(header(foreign, "Vary") == "Origin")
        #expect(header(PoolHTTPAnswer(error: .incorrectCredentials), "Access-Control-Allow-Origin") == nil)

        let preflight = PoolHTTPAnswer.preflight(origin: "http://localhost:5173", policy: policy)
        #expect(preflight.status == 200)
        #expect(header(preflight, "Access-Control-Allow-Headers") == CrossOriginPolicy.allowedHeaders.joined(separator: ", "))
        #expect(PoolHTTPAnswer.preflight(origin: "https://evil.example", policy: policy).status == 403)
        #expect(PoolHTTPAnswer.preflight(origin: nil, policy: policy).status == 403)
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
