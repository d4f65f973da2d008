import Basics
import ServiceClients
import Testing

@Suite struct SNSConfigurationTests {
    static let base = ["AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "not-shown-secret"]

    func configuration(_ extra: [String: String]) throws(SettingError) -> SNSConfiguration {
        try SNSConfiguration(environment: Self.base.merging(extra) { $1 })
    }

    @Test func defaultsFromTheAWSEnvironment() throws {
        let configuration = try configuration([:])
        #expect(configuration.region == "eu-west-1")
        #expect(configuration.endpoint == .regional("sns", "eu-west-1"))
        #expect(configuration.endpoint.baseURL == "https://sns.eu-west-1.amazonaws.com")
        #expect(configuration.senderID == nil)
        #expect(configuration.text == .defaults)
        #expect(configuration.timeBudget == .milliseconds(3000))
        #expect(configuration.connectTimeout == .milliseconds(1000))
    }

    @Test func readsItsOwnVariables() throws {
        let configuration = try configuration([
            "SNS_ENDPOINT": "http://127.0.0.1:4566/", "SMS_SENDER_ID": "Example1", "SMS_TIMEOUT_MS": "400",
            "SMS_TEXT_TEMPLATE": "Code {code}",
        ])
        #expect(configuration.endpoint.baseURL == "http://127.0.0.1:4566")
        #expect(configuration.senderID == "Example1")
        #expect(configuration.timeBudget == .milliseconds(400))
        #expect(configuration.connectTimeout == .milliseconds(400))
        #expect(configuration.text.template == "Code {code}")
    }

    @Test(arguments: [
        (["SMS_TIMEOUT_MS": "99"], "SMS_TIMEOUT_MS is \"99\"; expected whole milliseconds from 100 to 4500"),
        (["SMS_TIMEOUT_MS": "4501"], "SMS_TIMEOUT_MS is \"4501\"; expected whole milliseconds from 100 to 4500"),
        (["SMS_TIMEOUT_MS": "3s"], "SMS_TIMEOUT_MS is \"3s\"; expected whole milliseconds from 100 to 4500"),
        (
            ["SMS_TEXT_TEMPLATE": "Your code expires in {minutes} minutes"],
            "SMS_TEXT_TEMPLATE has no {code} placeholder, so the text message would not carry the code"
        ),
        (
            ["SMS_SENDER_ID": "Example Corp"],
            "SMS_SENDER_ID is \"Example Corp\"; expected 1 to 11 ASCII letters and digits, at least one a letter"
        ),
        (
            ["SMS_SENDER_ID": "12345"],
            "SMS_SENDER_ID is \"12345\"; expected 1 to 11 ASCII letters and digits, at least one a letter"
        ),
        (
            ["SNS_ENDPOINT": "sns.local"],
            "SNS_ENDPOINT is \"sns.local\"; expected http(s)://host[:port] with no path"
        ),
        (["AWS_REGION": "", "AWS_DEFAULT_REGION": ""], "AWS_REGION is not set (Lambda sets it; set it to run elsewhere)"),
    ])
    func refusesBadValuesNamingTheVariable(extra: [String: String], message: String) {
        do {
            _ = try configuration(extra)
            Issue.record("accepted \(extra)")
        } catch {
            #expect("\(error)" == message)
        }
    }

    @Test func errorsNeverShowTheSecret() {
        do {
            _ = try SNSConfiguration(environment: ["AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "bad secret"])
            Issue.record("accepted a secret with a space")
        } catch {
            #expect(error.variable == "AWS_SECRET_ACCESS_KEY")
            #expect(!"\(error)".contains("bad secret"))
        }
    }
}
