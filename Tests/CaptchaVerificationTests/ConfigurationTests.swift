import Basics
import CurlHTTP
import ServiceClients
import Testing

@Suite("CAPTCHA configuration from the environment")
struct ConfigurationTests {
    static let secret = "0x4AAAAAAAVerySecretValue"
    static let minimal = [
        "CAPTCHA_PROVIDER": "turnstile", "CAPTCHA_SITE_KEY": "0x4AAAAAAASiteKey", "CAPTCHA_SECRET": secret,
        "CAPTCHA_ALLOWED_HOSTNAMES": "login.example.com",
    ]

    @Test func defaults() throws {
        let configuration = try CaptchaProviderConfiguration(environment: Self.minimal)
        #expect(configuration.provider == .turnstile)
        #expect(configuration.siteKey == "0x4AAAAAAASiteKey")
        #expect(configuration.secret == CaptchaSecret(Self.secret))
        #expect(configuration.allowedHostnames == ["login.example.com"])
        #expect(configuration.action == nil)
        #expect(configuration.minimumScore == 0.5)
        #expect(configuration.endpoint == "https://challenges.cloudflare.com/turnstile/v0/siteverify")
        #expect(configuration.timeBudget == .milliseconds(2000))
        #expect(configuration.connectTimeout == .milliseconds(1000))
        #expect(configuration.caFile == CABundle.installed())
    }

    @Test(arguments: [
        ("turnstile", "https://challenges.cloudflare.com/turnstile/v0/siteverify"),
        ("recaptcha", "https://www.google.com/recaptcha/api/siteverify"),
        ("HCaptcha", "https://api.hcaptcha.com/siteverify"),
    ])
    func eachProviderHasItsEndpoint(name: String, endpoint: String) throws {
        let configuration = try CaptchaProviderConfiguration(environment: Self.minimal.merging(["CAPTCHA_PROVIDER": name]) { $1 })
        #expect(configuration.provider.rawValue == name.lowercased())
        #expect(configuration.endpoint == endpoint)
    }

    @Test func everySetting() throws {
        let environment = Self.minimal.merging([
            "CAPTCHA_PROVIDER": "recaptcha", "CAPTCHA_ALLOWED_HOSTNAMES": "Login.Example.com, app.example.com,localhost",
            "CAPTCHA_ACTION": "login", "RECAPTCHA_MIN_SCORE": "0.7", "CAPTCHA_ENDPOINT": "http://127.0.0.1:8080/recaptcha/siteverify",
            "CAPTCHA_TIMEOUT_MS": "600",
        ]) { $1 }
        let configuration = try CaptchaProviderConfiguration(environment: environment)
        #expect(configuration.provider == .recaptcha)
        #expect(configuration.allowedHostnames == ["login.example.com", "app.example.com", "localhost"])
        #expect(configuration.action == "login")
        #expect(configuration.minimumScore == 0.7)
        #expect(configuration.endpoint == "http://127.0.0.1:8080/recaptcha/siteverify")
        #expect(configuration.timeBudget == .milliseconds(600))
        #expect(configuration.connectTimeout == .milliseconds(600))
    }

    @Test func publicParametersHoldNothingSecret() throws {
        let withAction = try CaptchaProviderConfiguration(environment: Self.minimal.merging(["CAPTCHA_ACTION": "login"]) { $1 })
        #expect(withAction.publicParameters() == ["provider": "turnstile", "siteKey": "0x4AAAAAAASiteKey", "action": "login"])
        let hcaptcha = try CaptchaProviderConfiguration(environment: Self.minimal.merging(["CAPTCHA_PROVIDER": "hcaptcha"]) { $1 })
        #expect(hcaptcha.publicParameters() == ["provider": "hcaptcha", "siteKey": "0x4AAAAAAASiteKey"])
    }

    @Test func printingTheConfigurationHidesTheSecret() throws {
        let configuration = try CaptchaProviderConfiguration(environment: Self.minimal)
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in ["\(configuration)", String(reflecting: configuration), dumped] {
            #expect(!text.contains(Self.secret))
            #expect(text.contains("[redacted]"))
        }
    }

    @Test(arguments: [
        ("CAPTCHA_PROVIDER", nil),
        ("CAPTCHA_PROVIDER", "friendlycaptcha"),
        ("CAPTCHA_SITE_KEY", nil),
        ("CAPTCHA_SITE_KEY", "site key"),
        ("CAPTCHA_SITE_KEY", "\(secret) pasted"),
        ("CAPTCHA_SECRET", nil),
        ("CAPTCHA_SECRET", "\(secret)\n"),
        ("CAPTCHA_ALLOWED_HOSTNAMES", nil),
        ("CAPTCHA_ALLOWED_HOSTNAMES", "login.example.com,,app.example.com"),
        ("CAPTCHA_ALLOWED_HOSTNAMES", "https://login.example.com"),
        ("CAPTCHA_ALLOWED_HOSTNAMES", "login.example.com:443"),
        ("CAPTCHA_ACTION", "log in"),
        ("RECAPTCHA_MIN_SCORE", "high"),
        ("RECAPTCHA_MIN_SCORE", "1.5"),
        ("RECAPTCHA_MIN_SCORE", "-0.1"),
        ("RECAPTCHA_MIN_SCORE", "nan"),
        ("CAPTCHA_ENDPOINT", "ftp://127.0.0.1/siteverify"),
        ("CAPTCHA_ENDPOINT", "127.0.0.1:8080/siteverify"),
        ("CAPTCHA_ENDPOINT", "http:///siteverify"),
        ("CAPTCHA_ENDPOINT", "https://user:\(secret)@example.com/siteverify"),
        ("CAPTCHA_ENDPOINT", "http://127.0.0.1/site verify"),
        ("CAPTCHA_TIMEOUT_MS", "abc"),
        ("CAPTCHA_TIMEOUT_MS", "99"),
        ("CAPTCHA_TIMEOUT_MS", "4001"),
        ("CAPTCHA_TIMEOUT_MS", "1.5"),
    ] as [(String, String?)])
    func problemsNameTheirVariable(variable: String, value: String?) {
        var environment = Self.minimal
        environment[variable] = value
        do {
            _ = try CaptchaProviderConfiguration(environment: environment)
            Issue.record("\(variable)=\(value ?? "unset") was accepted")
        } catch {
            #expect(error.variable == variable)
            #expect("\(error)".hasPrefix("\(variable) "))
            #expect(!"\(error)".contains(Self.secret))
        }
    }

    @Test func aSecretPastedIntoAnotherVariableIsMasked() {
        let environment = Self.minimal.merging(["CAPTCHA_ENDPOINT": "https://user:\(Self.secret)@example.com/siteverify"]) { $1 }
        #expect(throws: SettingError(
            variable: "CAPTCHA_ENDPOINT",
            problem: "is \"https://user:[secret]@example.com/siteverify\"; expected an http(s) URL such as https://host/siteverify")) {
            try CaptchaProviderConfiguration(environment: environment)
        }
    }

    @Test func actionIsRefusedForHCaptchaWhichReportsNone() {
        let environment = Self.minimal.merging(["CAPTCHA_PROVIDER": "hcaptcha", "CAPTCHA_ACTION": "login"]) { $1 }
        #expect(throws: SettingError(
            variable: "CAPTCHA_ACTION", problem: "is \"login\", but hcaptcha reports no action to compare it with")) {
            try CaptchaProviderConfiguration(environment: environment)
        }
    }

    @Test("a secret read by the caller (e.g. from Parameter Store) replaces CAPTCHA_SECRET and is masked in messages")
    func secretGivenByTheCaller() throws {
        var environment = Self.minimal
        environment["CAPTCHA_SECRET"] = nil
        let configuration = try CaptchaProviderConfiguration(
            environment: environment, secret: "0x4AAAAAAAFromParameterStore", secretVariable: "CAPTCHA_SECRET_PARAMETER")
        #expect(configuration.secret == CaptchaSecret("0x4AAAAAAAFromParameterStore"))
        environment["CAPTCHA_ENDPOINT"] = "https://user:0x4AAAAAAAFromParameterStore@example.com/siteverify"
        let error = #expect(throws: SettingError.self) {
            try CaptchaProviderConfiguration(environment: environment, secret: "0x4AAAAAAAFromParameterStore", secretVariable: "CAPTCHA_SECRET_PARAMETER")
        }
        #expect(error?.problem.contains("user:[secret]@") == true, "\(String(describing: error))")
        #expect(throws: SettingError(
            variable: "CAPTCHA_SECRET_PARAMETER", problem: "holds spaces or control characters (its value is not shown)")) {
            try CaptchaProviderConfiguration(environment: Self.minimal, secret: "two words", secretVariable: "CAPTCHA_SECRET_PARAMETER")
        }
        let missing = #expect(throws: SettingError.self) {
            try CaptchaProviderConfiguration(environment: Self.minimal, secret: nil, secretVariable: "CAPTCHA_SECRET_PARAMETER")
        }
        #expect(missing?.variable == "CAPTCHA_SECRET")
    }

    @Test func emptyVariableCountsAsUnset() throws {
        let environment = Self.minimal.merging(["CAPTCHA_ACTION": "", "CAPTCHA_TIMEOUT_MS": ""]) { $1 }
        let configuration = try CaptchaProviderConfiguration(environment: environment)
        #expect(configuration.action == nil)
        #expect(configuration.timeBudget == .milliseconds(2000))
    }
}
