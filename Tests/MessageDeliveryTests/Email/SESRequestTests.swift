import ChallengeFlows
import CurlHTTP
import ServiceClients
import Testing

@Suite("SES SendEmail request")
struct SESRequestTests {
    /// The body is our own rendering; the signature is the one botocore's SigV4Auth computes for this exact request
    /// (service `ses`, us-east-1, 2015-08-30T12:36:00Z, the credentials of ``SESFixtures``).
    @Test func requestIsExactForAFixedClockAndCredentials() throws {
        var configuration = SESConfiguration(
            region: "us-east-1", credentials: SESFixtures.credentials, fromAddress: SESFixtures.fromAddress,
            configurationSetName: "code-emails")
        configuration.caFile = nil
        let delivery = try SESCodeDelivery(configuration: configuration)

        let request = delivery.request(for: SESFixtures.message, at: SigningDate(secondsSince1970: 1_440_938_160))

        #expect(request.method == .post)
        #expect(request.url == "https://email.us-east-1.amazonaws.com/v2/email/outbound-emails")
        let expectedBody =
            #"{"FromEmailAddress":"Example Sign-in <no-reply@example.com>","Destination":{"ToAddresses":["jane@example.com"]},"#
            + #""Content":{"Simple":{"Subject":{"Data":"Your sign-in code","Charset":"UTF-8"},"Body":{"Text":{"Data":"#
            + #""Your sign-in code is 042917\n\nIt expires in 3 minutes. If you did not try to sign in, you can ignore this email.\n","#
            + #""Charset":"UTF-8"},"Html":{"Data":"<!DOCTYPE html><html><body><p>Your sign-in code is <strong>042917</strong></p>"#
            + #"<p>It expires in 3 minutes. If you did not try to sign in, you can ignore this email.</p></body></html>","#
            + #""Charset":"UTF-8"}}}},"ConfigurationSetName":"code-emails"}"#
        #expect(String(decoding: request.body, as: UTF8.self) == expectedBody)
        #expect(
            request.headers == [
                HTTPHeader("Host", "email.us-east-1.amazonaws.com"),
                HTTPHeader("Content-Type", "application/json"),
                HTTPHeader("X-Amz-Date", "20150830T123600Z"),
                HTTPHeader("X-Amz-Security-Token", "FQoGZXIvYXdzEXAMPLETOKEN"),
                HTTPHeader(
                    "Authorization",
                    "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/ses/aws4_request, "
                        + "SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, "
                        + "Signature=94232a76122a8733382faa34145acee59c076e7434759e17d82c6d59d30efc73"),
            ])
        #expect(request.connectTimeout == .seconds(1))
        #expect(request.totalTimeout == .seconds(3))
    }

    @Test func localEndpointKeepsItsPortInHostAndURL() throws {
        let delivery = try SESCodeDelivery(configuration: SESFixtures.configuration(endpoint: "http://127.0.0.1:4566/"))
        let request = delivery.request(for: SESFixtures.message, at: SigningDate(secondsSince1970: 0))
        #expect(request.url == "http://127.0.0.1:4566/v2/email/outbound-emails")
        #expect(request.headers.first == HTTPHeader("Host", "127.0.0.1:4566"))
        #expect(!String(decoding: request.body, as: UTF8.self).contains("ConfigurationSetName"))
    }
}

@Suite("Code email templates")
struct CodeEmailTemplateTests {
    @Test func defaultsCarryTheCodeAndLifetime() {
        let email = CodeEmailTemplates.defaults.render(SESFixtures.message)
        #expect(email.subject == "Your sign-in code")
        #expect(email.text.hasPrefix("Your sign-in code is 042917\n"))
        #expect(email.text.contains("expires in 3 minutes"))
        #expect(email.html.contains("<strong>042917</strong>"))
    }

    @Test func valuesAreEscapedInHTMLOnly() {
        let templates = CodeEmailTemplates(subject: "Hi {username}", text: "{username}: {code}", html: "<p>{username}: {code}</p>")
        let message = CodeMessage(recipient: "x@example.com", userName: "<b>Tom & \"Jerry\"'s</b>", code: "1", validForSeconds: 60)
        let email = templates.render(message)
        #expect(email.subject == "Hi <b>Tom & \"Jerry\"'s</b>")
        #expect(email.text == "<b>Tom & \"Jerry\"'s</b>: 1")
        #expect(email.html == "<p>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&#39;s&lt;/b&gt;: 1</p>")
    }

    @Test func placeholdersAreFilledOnceAndOtherBracesKept() {
        let templates = CodeEmailTemplates(
            subject: "Code\nfor {username}", text: "{username} {code} {unknown} {minutes}{",
            html: "<style>p {color: red}</style><p>{code}</p>")
        let message = CodeMessage(recipient: "x@example.com", userName: "{code}", code: "777", validForSeconds: 59)
        let email = templates.render(message)
        #expect(email.subject == "Code for {code}")
        #expect(email.text == "{code} 777 {unknown} 1{")
        #expect(email.html == "<style>p {color: red}</style><p>777</p>")
        #expect(templates.render(CodeMessage(recipient: "", userName: "", code: "", validForSeconds: 600)).text.hasSuffix(" 10{"))
    }
}
