import CurlHTTP
import ServiceClients
import Testing

@Suite("SES configuration from the environment")
struct SESConfigurationTests {
    static let minimal = [
        "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "VERYSECRETKEY",
        "SES_FROM_ADDRESS": "no-reply@example.com",
    ]

    @Test func defaults() throws {
        let configuration = try SESConfiguration(environment: Self.minimal)
        #expect(configuration.region == "eu-west-1")
        #expect(configuration.credentials == AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "VERYSECRETKEY"))
        #expect(configuration.fromAddress == "no-reply@example.com")
        #expect(configuration.configurationSetName == nil)
        #expect(configuration.endpoint == AWSEndpoint(url: "https://email.eu-west-1.amazonaws.com"))
        #expect(configuration.endpoint.host == "email.eu-west-1.amazonaws.com")
        #expect(configuration.templates == .defaults)
        #expect(configuration.timeBudget == .milliseconds(3000))
        #expect(configuration.connectTimeout == .milliseconds(1000))
        #expect(configuration.caFile == CABundle.installed())
    }

    @Test func everySetting() throws {
        let environment = Self.minimal.merging([
            "AWS_SESSION_TOKEN": "TOKEN", "SES_CONFIGURATION_SET": "codes", "SES_ENDPOINT": "http://127.0.0.1:4566",
            "SES_TIMEOUT_MS": "2000", "SES_CONNECT_TIMEOUT_MS": "300", "SES_CA_FILE": "/dev/null",
            "EMAIL_SUBJECT": "Code for {username}", "EMAIL_TEXT_TEMPLATE": "code {code}", "EMAIL_HTML_TEMPLATE": "<b>{code}</b>",
        ]) { $1 }
        let configuration = try SESConfiguration(environment: environment)
        #expect(configuration.credentials.sessionToken == "TOKEN")
        #expect(configuration.configurationSetName == "codes")
        #expect(configuration.endpoint.baseURL == "http://127.0.0.1:4566")
        #expect(configuration.endpoint.host == "127.0.0.1:4566")
        #expect(configuration.timeBudget == .milliseconds(2000))
        #expect(configuration.connectTimeout == .milliseconds(300))
        #expect(configuration.caFile == "/dev/null")
        #expect(configuration.templates == CodeEmailTemplates(subject: "Code for {username}", text: "code {code}", html: "<b>{code}</b>"))
    }

    @Test func regionFallsBackToTheDefaultRegionVariable() throws {
        var environment = Self.minimal
        environment["AWS_REGION"] = nil
        environment["AWS_DEFAULT_REGION"] = "us-west-2"
        #expect(try SESConfiguration(environment: environment).region == "us-west-2")
    }

    @Test(arguments: [
        ("AWS_REGION", nil),
        ("AWS_REGION", "EU West"),
        ("AWS_ACCESS_KEY_ID", nil),
        ("AWS_SECRET_ACCESS_KEY", nil),
        ("SES_FROM_ADDRESS", nil),
        ("SES_FROM_ADDRESS", "no-reply"),
        ("SES_FROM_ADDRESS", "a@b.c\r\nBcc: x@y.z"),
        ("SES_ENDPOINT", "ftp://127.0.0.1"),
        ("SES_ENDPOINT", "http://127.0.0.1:4566/v2"),
        ("SES_ENDPOINT", "127.0.0.1:4566"),
        ("SES_TIMEOUT_MS", "abc"),
        ("SES_TIMEOUT_MS", "5000"),
        ("SES_TIMEOUT_MS", "50"),
        ("SES_CONNECT_TIMEOUT_MS", "3001"),
        ("SES_CA_FILE", "/nonexistent/ca.pem"),
        ("EMAIL_TEXT_TEMPLATE", "no code here"),
        ("EMAIL_HTML_TEMPLATE", "<p>{username}</p>"),
    ] as [(String, String?)])
    func problemsNameTheirVariable(variable: String, value: String?) {
        var environment = Self.minimal
        environment[variable] = value
        do {
            _ = try SESConfiguration(environment: environment)
            Issue.record("\(variable)=\(value ?? "unset") was accepted")
        } catch {
            #expect(error.variable == variable)
            #expect("\(error)".hasPrefix("\(variable) "))
            #expect(!"\(error)".contains("VERYSECRETKEY"))
        }
    }
}
