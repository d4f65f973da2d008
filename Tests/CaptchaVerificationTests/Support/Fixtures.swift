import Glibc
import ServiceClients
import Testing

enum Fixtures {
    static let secret = "0x4AAAAAAASecretKeyForTestsOnly"
    static let siteKey = "0x4AAAAAAASiteKey"

    /// A token for a scenario of the stand-in, unique so that it is never mistaken for a second use.
    static func token(_ scenario: String) -> String {
        "\(scenario).\(UInt64.random(in: 0...UInt64.max))XyZ"
    }

    static var now: Int64 { Int64(time(nil)) }

    static func configuration(
        _ provider: CaptchaProvider, standIn: SiteverifyStandIn, action: String? = nil, secret: String = secret,
        budget: Duration = .seconds(2)
    ) -> CaptchaProviderConfiguration {
        CaptchaProviderConfiguration(
            provider: provider, siteKey: siteKey, secret: CaptchaSecret(secret), allowedHostnames: ["login.example.com"],
            action: action ?? (provider == .hcaptcha ? nil : "login"), endpoint: standIn.endpoint(for: provider),
            timeBudget: budget)
    }

    /// The rejection of a verdict; records an issue when the token passed.
    static func rejection(_ verdict: CaptchaVerdict, token: String, secret: String = secret) -> CaptchaRejection? {
        guard case .rejected(let rejection) = verdict else {
            Issue.record("the token passed")
            return nil
        }
        let description = "\(rejection)"
        #expect(!description.contains(token), "the description holds the token: \(description)")
        #expect(!description.contains(secret), "the description holds the secret: \(description)")
        #expect(description.hasSuffix("."), "the description is not a sentence: \(description)")
        return rejection
    }
}
