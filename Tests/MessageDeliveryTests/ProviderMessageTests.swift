import CurlHTTP
import Testing

@testable import ServiceClients

/// Provider error text reaches the log: it must never carry the code, an address or a phone number, whatever the
/// provider quotes.
@Suite("Provider error messages")
struct ProviderMessageTests {
    /// SES's sandbox refusal, as SES words it, quoting the recipient in two spellings.
    static let sandboxRefusal =
        "Email address is not verified. The following identities failed the check in region US-EAST-1: jane@example.com, Jane.Doe@Example.COM"

    @Test func sesSandboxRefusalKeepsNoAddress() {
        let body = Array(#"{"message": "\#(Self.sandboxRefusal)"}"#.utf8)
        let response = SESErrorResponse(
            HTTPResponse(status: 400, headers: [HTTPHeader("x-amzn-ErrorType", "MessageRejected")], body: body), masking: "042917")
        let text = "\(SESDeliveryError.rejected(response, attempts: 1))"
        #expect(!text.lowercased().contains("jane"))
        #expect(!text.contains("@"))
        #expect(text.contains("The following identities failed the check in region US-EAST-1: [address] [address]"))
        #expect(text.hasPrefix("SES refused the code email: HTTP 400 MessageRejected: Email address is not verified."))
    }

    @Test(arguments: ["+15555550100", "+1 555 555 0100", "+1 (555) 555-0100", "15555550100", "+44.20.7946.0000"])
    func snsMessagesKeepNoPhoneNumber(number: String) {
        let xml = "<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber Reason: \(number) is opted out; code 042917</Message></Error></ErrorResponse>"
        let response = SNSErrorResponse(HTTPResponse(status: 400, headers: [], body: Array(xml.utf8)), masking: "042917")
        let text = "\(SNSDeliveryError.rejected(response, attempts: 1))"
        #expect(!text.contains("555"))
        #expect(!text.contains("7946"))
        #expect(!text.contains("042917"))
        #expect(text.contains("Invalid parameter: PhoneNumber Reason: [number] is opted out; code [code]"))
    }

    @Test func shortNumbersAndWordsStay() {
        #expect(ProviderMessage.redacted("Rate exceeded: 20 per 1 s (request 123456)", code: "") == "Rate exceeded: 20 per 1 s (request 123456)")
        #expect(ProviderMessage.redacted("x", code: "").count == 1)
        #expect(ProviderMessage.redacted(String(repeating: "a", count: 400), code: "").count == ProviderMessage.maximumLength)
    }
}
