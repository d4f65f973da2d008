import CurlHTTP
import ServiceClients
import Testing

/// The `Publish` request as it goes on the wire: form fields in the Query protocol's order, signed for `sns`.
@Suite struct SNSRequestTests {
    static let date = SigningDate(secondsSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z

    @Test func formCarriesThePublishFieldsEncoded() throws {
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: "https://sns.us-east-1.amazonaws.com"))
        let request = delivery.request(code: "042917", to: "+15555550100", validForSeconds: 300, at: Self.date)
        #expect(request.method == .post)
        #expect(request.url == "https://sns.us-east-1.amazonaws.com/")
        #expect(
            String(decoding: request.body, as: UTF8.self)
                == "Action=Publish&Version=2010-03-31&PhoneNumber=%2B15555550100"
                + "&Message=Your+sign-in+code+is+042917.+It+expires+in+5+minutes."
                + "&MessageAttributes.entry.1.Name=AWS.SNS.SMS.SMSType&MessageAttributes.entry.1.Value.DataType=String"
                + "&MessageAttributes.entry.1.Value.StringValue=Transactional")
        #expect(request.totalTimeout == .seconds(3))
    }

    @Test func formEncodesLikeTheSDKs() throws {
        let delivery = try SNSCodeDelivery(
            configuration: SNSFixtures.configuration(endpoint: "https://sns.us-east-1.amazonaws.com")
                .with(text: try SMSText(template: "{code} 100% & more+ ~ ü"))
        )
        let body = String(decoding: delivery.request(code: "1", to: "+15555550100", validForSeconds: 60, at: Self.date).body, as: UTF8.self)
        #expect(body.contains("&Message=1+100%25+%26+more%2B+~+%C3%BC&"))
    }

    @Test func senderIDIsASecondAttribute() throws {
        let delivery = try SNSCodeDelivery(
            configuration: SNSFixtures.configuration(endpoint: "https://sns.us-east-1.amazonaws.com", senderID: "Example"))
        let body = String(decoding: delivery.request(code: "1", to: "+15555550100", validForSeconds: 60, at: Self.date).body, as: UTF8.self)
        #expect(
            body.hasSuffix(
                "&MessageAttributes.entry.2.Name=AWS.SNS.SMS.SenderID&MessageAttributes.entry.2.Value.DataType=String"
                    + "&MessageAttributes.entry.2.Value.StringValue=Example"))
    }

    @Test func requestIsSignedForSNSInItsRegion() throws {
        let delivery = try SNSCodeDelivery(configuration: SNSFixtures.configuration(endpoint: "https://sns.us-east-1.amazonaws.com"))
        let request = delivery.request(code: "042917", to: "+15555550100", validForSeconds: 300, at: Self.date)
        let authorization = try #require(request.headers.first { $0.name == "Authorization" }?.value)
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/sns/aws4_request, "))
        #expect(authorization.contains("SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, "))
        #expect(request.headers.contains(HTTPHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")))
        #expect(request.headers.contains(HTTPHeader("X-Amz-Date", "20150830T123600Z")))
        #expect(request.headers.contains(HTTPHeader("X-Amz-Security-Token", "FQoGZXIvYXdzEXAMPLETOKEN")))
    }

    @Test func templateFillsCodeAndWholeMinutes() throws {
        let text = try SMSText(template: "{code} is your code for {minutes} min; {other} stays")
        #expect(text.render(code: "123456", validForSeconds: 179) == "123456 is your code for 2 min; {other} stays")
        #expect(text.render(code: "123456", validForSeconds: 30) == "123456 is your code for 1 min; {other} stays")
        #expect(SMSText.defaults.render(code: "9", validForSeconds: 600) == "Your sign-in code is 9. It expires in 10 minutes.")
    }
}
