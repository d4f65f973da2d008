import Basics
import ServiceClients
import Testing

@Suite("Signature Version 4 details")
struct SigV4DetailsTests {
    @Test(arguments: [
        (0, "19700101T000000Z"),
        (1_440_938_160, "20150830T123600Z"),
        (951_782_400, "20000229T000000Z"),  // a leap day in a century year divisible by 400
        (4_107_542_399, "21000228T235959Z"),  // 2100 is not a leap year
        (4_107_542_400, "21000301T000000Z"),
        (1_709_251_199, "20240229T235959Z"),
        (-1, "19691231T235959Z"),
    ] as [(Int64, String)])
    func formatsUTCTimestamps(seconds: Int64, expected: String) {
        let date = SigningDate(secondsSince1970: seconds)
        #expect(date.timestamp == expected)
        #expect(date.dateStamp == String(expected.prefix(8)))
    }

    /// A fuzz-sigv4 input (Tests/Fuzz) signed at `Int64.min` crashed: the day arithmetic overflowed.
    @Test func formatsTheEndsOfTheRangeWithoutOverflow() {
        #expect(SigningDate(secondsSince1970: .max).timestamp == "2922770265961204T153007Z")
        #expect(SigningDate(secondsSince1970: .min).timestamp == "-2922770226570127T082952Z")
    }

    @Test func systemClockIsNearTheBuildEra() {
        let now = SigningDate.now()
        #expect(now.secondsSince1970 > 1_700_000_000)
        #expect(now.timestamp.count == 16)
    }

    @Test func credentialsComeFromTheStandardVariables() throws {
        let credentials = try AWSCredentials(environment: [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret/key+1", "AWS_SESSION_TOKEN": "tok3n",
        ])
        #expect(credentials == AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret/key+1", sessionToken: "tok3n"))
        let permanent = try AWSCredentials(environment: [
            "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "",
        ])
        #expect(permanent.sessionToken == nil)
    }

    @Test func missingCredentialsNameTheVariable() {
        #expect(throws: SettingError(variable: "AWS_SECRET_ACCESS_KEY", problem: "is not set")) {
            try AWSCredentials(environment: ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE"])
        }
        #expect(throws: SettingError(variable: "AWS_ACCESS_KEY_ID", problem: "is not set")) {
            try AWSCredentials(environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "x"])
        }
        do {
            _ = try AWSCredentials(environment: ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "bad secret"])
            Issue.record("a secret with a space was accepted")
        } catch {
            #expect(error.variable == "AWS_SECRET_ACCESS_KEY")
            #expect(!"\(error)".contains("bad secret"))
        }
    }

    @Test func descriptionsNeverShowTheSecretOrToken() {
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "TOPSECRETVALUE", sessionToken: "SESSIONTOKENVALUE")
        var dumped = ""
        dump(credentials, to: &dumped)
        let signed = SigV4Signer(credentials: credentials, region: "us-east-1", service: "ses")
            .sign(SignableRequest(method: "GET", host: "example.com", path: "/"), at: SigningDate(secondsSince1970: 0))
        for text in ["\(credentials)", String(reflecting: credentials), dumped, "\(signed)"] {
            #expect(text.contains("AKIDEXAMPLE") || text.contains("SignedRequest"))
            #expect(!text.contains("TOPSECRETVALUE"))
            #expect(!text.contains("SESSIONTOKENVALUE"))
        }
    }

    @Test func signerOwnsHostDateTokenAndAuthorizationHeaders() {
        let credentials = AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "token")
        let request = SignableRequest(
            method: "POST", host: "email.eu-west-1.amazonaws.com", path: "/v2/email/outbound-emails",
            headers: [.init("host", "forged"), .init("X-Amz-Date", "19990101T000000Z"), .init("Content-Type", "application/json")],
            body: Array("{}".utf8))
        let signed = SigV4Signer(credentials: credentials, region: "eu-west-1", service: "ses")
            .sign(request, at: SigningDate(secondsSince1970: 1_440_938_160))
        #expect(signed.headers.map(\.name) == ["Host", "Content-Type", "X-Amz-Date", "X-Amz-Security-Token", "Authorization"])
        #expect(signed.headers[0].value == "email.eu-west-1.amazonaws.com")
        #expect(signed.headers[2].value == "20150830T123600Z")
        #expect(signed.authorization.contains("SignedHeaders=content-type;host;x-amz-date;x-amz-security-token,"))
        #expect(signed.authorization.contains("Credential=AKID/20150830/eu-west-1/ses/aws4_request,"))
    }
}
