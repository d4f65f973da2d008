import ServiceClients
import TestSupport
import Testing

/// How the client reads AWS's error and odd success answers, served over real HTTP by ``CannedAnswerServer``.
@Suite("Parameter Store error answers")
struct ErrorAnswerTests {
    static let name = "/app/code-hash-secret"

    /// The error reading ``name`` from a server with this answer ends with; nil if the read succeeded.
    private func failure(status: Int, headers: [String]? = nil, body: String) throws -> ParameterStoreError? {
        let server = try headers.map { try CannedAnswerServer(status: status, headers: $0, body: body) }
            ?? CannedAnswerServer(status: status, body: body)
        let client = try ParameterStoreClient(
            region: "eu-west-1", credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "answer-secret"),
            endpoint: AWSEndpoint(url: server.endpoint))
        do {
            _ = try client.secureString(named: Self.name)
            return nil
        } catch {
            return error
        }
    }

    @Test(.requires(.python3)) func accessDeniedCarriesAWSsExplanation() throws {
        let error = try failure(
            status: 400,
            body: #"{"__type":"AccessDeniedException","message":"User: arn:aws:sts::123456789012:assumed-role/fn/fn is not authorized to perform: ssm:GetParameter"}"#)
        guard case .accessDenied(parameter: Self.name, message: let message)? = error else {
            Issue.record("expected access denied, got \(String(describing: error))")
            return
        }
        #expect(message?.hasSuffix("is not authorized to perform: ssm:GetParameter") == true)
        #expect("\(error!)".hasPrefix("Parameter Store denied access to parameter \"\(Self.name)\": User: arn:aws:sts::"))
        #expect("\(error!)".hasSuffix("the function's role needs ssm:GetParameter on it and kms:Decrypt on its key."))
    }

    @Test(.requires(.python3)) func theErrorTypeHeaderWinsAndQualifiedTypesAreShortened() throws {
        let fromHeader = try failure(
            status: 400, headers: ["x-amzn-ErrorType: ParameterNotFound:http://internal.amazon.com/coral/com.amazonaws.ssm/"],
            body: "{}")
        guard case .notFound(parameter: Self.name)? = fromHeader else {
            Issue.record("expected notFound, got \(String(describing: fromHeader))")
            return
        }
        let qualified = try failure(status: 400, body: #"{"__type":"com.amazonaws.ssm#ParameterNotFound"}"#)
        guard case .notFound(parameter: Self.name)? = qualified else {
            Issue.record("expected notFound, got \(String(describing: qualified))")
            return
        }
    }

    @Test(.requires(.python3)) func throttlingIsRejectedWithItsStatusAndType() throws {
        let error = try failure(status: 400, body: #"{"__type":"ThrottlingException","message":"Rate exceeded"}"#)
        guard case .rejected(parameter: Self.name, status: 400, type: "ThrottlingException")? = error else {
            Issue.record("expected a rejection, got \(String(describing: error))")
            return
        }
        #expect("\(error!)" == "Parameter Store refused to read parameter \"\(Self.name)\": HTTP 400 \"ThrottlingException\".")
        let bare = try failure(status: 503, headers: [], body: "Service Unavailable")
        guard case .rejected(parameter: Self.name, status: 503, type: nil)? = bare else {
            Issue.record("expected a bare rejection, got \(String(describing: bare))")
            return
        }
    }

    @Test(.requires(.python3), arguments: [
        ("not json at all", "the answer is not JSON"),
        (#"{"Parameters":[]}"#, "the answer has no \"Parameter\" object"),
        (#"{"Parameter":{"Type":"SecureString","Value":42}}"#, "the answer has no string \"Parameter.Value\""),
    ])
    func aSuccessWithoutAValueIsMalformed(body: String, reason: String) throws {
        let error = try failure(status: 200, body: body)
        guard case .malformed(parameter: Self.name, reason: reason)? = error else {
            Issue.record("expected malformed (\(reason)), got \(String(describing: error))")
            return
        }
        #expect("\(error!)" == "Parameter Store's answer for parameter \"\(Self.name)\" could not be read: \(reason).")
    }
}
