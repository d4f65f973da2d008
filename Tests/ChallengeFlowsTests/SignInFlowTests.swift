import ChallengeFlows
import Testing

@Suite("SignInFlow and ChallengePolicy configuration")
struct SignInFlowTests {
    @Test("the four named flows", arguments: [
        ("email-code", false, [ChallengeKind.emailCode]),
        ("srp-email-code", true, [.emailCode]),
        ("captcha", false, [.captcha]),
        ("captcha-email-code", false, [.captcha, .emailCode]),
    ])
    func namedFlows(name: String, startsWithPassword: Bool, steps: [ChallengeKind]) throws {
        let flow = try SignInFlow(parsing: name)
        #expect(flow.startsWithPassword == startsWithPassword)
        #expect(flow.kinds == steps)
        #expect(flow.description == name)
    }

    @Test("compositions of steps joined by +", arguments: [
        ("srp+captcha+email-code", true, [ChallengeKind.captcha, .emailCode]),
        ("srp+email-code", true, [.emailCode]),
        ("email-code+captcha", false, [.emailCode, .captcha]),
        ("captcha+captcha", false, [.captcha, .captcha]),
        ("captcha+email-code", false, [.captcha, .emailCode]),
    ])
    func compositions(specification: String, startsWithPassword: Bool, steps: [ChallengeKind]) throws {
        let flow = try SignInFlow(parsing: specification)
        #expect(flow.startsWithPassword == startsWithPassword)
        #expect(flow.kinds == steps)
    }

    @Test("white space and letter case do not matter", arguments: [
        "  SRP + Captcha +\tEMAIL-CODE \n", "srp+captcha+email-code", "Srp+CAPTCHA + email-code",
    ])
    func spacingAndCase(specification: String) throws {
        #expect(try SignInFlow(parsing: specification) == SignInFlow(startsWithPassword: true, steps: [CaptchaStep(source: .catalog([])), EmailCodeStep()]))
        #expect(try SignInFlow(parsing: " Captcha-Email-Code ") == SignInFlow(parsing: "captcha+email-code"))
    }

    @Test("description reads back as the same flow, by name where it has one", arguments: [
        "email-code", "srp-email-code", "captcha", "captcha-email-code", "srp+captcha+email-code", "email-code+captcha",
        "srp+captcha", "captcha+captcha+email-code",
    ])
    func descriptionRoundTrip(specification: String) throws {
        let flow = try SignInFlow(parsing: specification)
        #expect(flow.description == specification)
        #expect(try SignInFlow(parsing: flow.description) == flow)
    }

    @Test("a composition that matches a named flow is described by that name")
    func compositionDescribedByName() throws {
        #expect(try SignInFlow(parsing: "srp+email-code").description == "srp-email-code")
        #expect(try SignInFlow(parsing: "captcha+email-code").description == "captcha-email-code")
    }

    @Test("unusable flows are refused with a message naming CHALLENGE_FLOW, the value and what would work", arguments: [
        ("email-code+srp", "srp (first only)"),
        ("captcha+srp+email-code", "srp (first only)"),
        ("", "email-code, srp-email-code, captcha, captcha-email-code"),
        ("   ", "email-code, srp-email-code, captcha, captcha-email-code"),
        ("sms-code", "captcha, email-code"),
        ("email-code+", "captcha, email-code"),
        ("email-code++captcha", "captcha, email-code"),
        ("srp", "at least one custom step after srp"),
        ("srp+srp+email-code", "srp (first only)"),
    ])
    func refused(specification: String, hint: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try SignInFlow(parsing: specification) }
        guard case .invalid(let variable, let value, _) = error else {
            Issue.record("expected .invalid, got \(error)")
            return
        }
        #expect(variable == "CHALLENGE_FLOW")
        #expect(value == specification)
        #expect(error.description.hasPrefix("CHALLENGE_FLOW=\"\(specification)\" is not valid: expected "))
        #expect(error.description.contains(hint))
    }

    @Test("policy defaults: 6 digits, 3 attempts, 180 seconds")
    func policyDefaults() throws {
        let policy = try ChallengePolicy()
        #expect(policy.codeLength == 6)
        #expect(policy.maxAttempts == 3)
        #expect(policy.validitySeconds == 180)
    }

    @Test("policy bounds are inclusive")
    func policyBounds() throws {
        #expect(try ChallengePolicy(codeLength: 6, maxAttempts: 1, validitySeconds: 30).codeLength == 6)
        #expect(try ChallengePolicy(codeLength: 10, maxAttempts: 10, validitySeconds: 900).maxAttempts == 10)
    }

    @Test("policy values out of bounds name their variable and the accepted range", arguments: [
        (5, 3, 180, "CODE_LENGTH", "5", "6 to 10"),
        (11, 3, 180, "CODE_LENGTH", "11", "6 to 10"),
        (6, 0, 180, "MAX_ATTEMPTS", "0", "1 to 10"),
        (6, 11, 180, "MAX_ATTEMPTS", "11", "1 to 10"),
        (6, 3, 29, "CODE_TTL_SECONDS", "29", "30 to 900"),
        (6, 3, 901, "CODE_TTL_SECONDS", "901", "30 to 900"),
    ])
    func policyOutOfBounds(
        codeLength: Int, maxAttempts: Int, validity: Int, variable: String, value: String, range: String
    ) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ChallengePolicy(codeLength: codeLength, maxAttempts: maxAttempts, validitySeconds: validity)
        }
        #expect(error.description.hasPrefix("\(variable)=\"\(value)\" is not valid"))
        #expect(error.description.contains(range))
    }
}
