import Basics
import CurlHTTP
import ServiceClients
import Testing

@Suite("The GetParameter request")
struct GetParameterRequestTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "request-secret", sessionToken: "request-token")

    @Test func isASignedJSONPostToTheRegionalEndpoint() throws {
        let client = try ParameterStoreClient(region: "eu-west-1", credentials: Self.credentials)
        let request = client.request(forParameter: "/app/secret \"quoted\"", at: SigningDate(secondsSince1970: 1_440_938_160))
        #expect(request.method == .post)
        #expect(request.url == "https://ssm.eu-west-1.amazonaws.com/")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"Name":"/app/secret \"quoted\"","WithDecryption":true}"#)
        func header(_ name: String) -> String? { request.headers.first { $0.name == name }?.value }
        #expect(header("Host") == "ssm.eu-west-1.amazonaws.com")
        #expect(header("X-Amz-Target") == "AmazonSSM.GetParameter")
        #expect(header("Content-Type") == "application/x-amz-json-1.1")
        #expect(header("X-Amz-Date") == "20150830T123600Z")
        #expect(header("X-Amz-Security-Token") == "request-token")
        let authorization = try #require(header("Authorization"))
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/eu-west-1/ssm/aws4_request, "))
        #expect(authorization.contains("SignedHeaders=content-type;host;x-amz-date;x-amz-security-token;x-amz-target, "))
        #expect(request.totalTimeout == .milliseconds(1500))
        #expect(request.connectTimeout == .milliseconds(1000))
    }

    @Test func theEndpointVariableOverridesTheRegionalOne() throws {
        #expect(try ParameterStoreClient.endpoint(in: [:], region: "us-east-1") == AWSEndpoint(url: "https://ssm.us-east-1.amazonaws.com"))
        #expect(
            try ParameterStoreClient.endpoint(in: ["SSM_ENDPOINT": "http://127.0.0.1:4566/"], region: "us-east-1")
                == AWSEndpoint(url: "http://127.0.0.1:4566"))
        #expect(throws: SettingError(variable: "SSM_ENDPOINT", problem: "is \"127.0.0.1:4566\"; expected http(s)://host[:port] with no path")) {
            try ParameterStoreClient.endpoint(in: ["SSM_ENDPOINT": "127.0.0.1:4566"], region: "us-east-1")
        }
    }
}
