import ChallengeFlows
import LosslessJSON

/// Whether and where the sign-in funnel's metrics go (`METRICS`, `METRICS_NAMESPACE`), and the function they are of
/// (`AWS_LAMBDA_FUNCTION_NAME`, which Lambda sets).
public struct MetricsSettings: Sendable, Equatable {
    /// `METRICS`: `on` (the default) or `off`.
    public var enabled: Bool
    /// `METRICS_NAMESPACE`, `CognitoChallenge` by default.
    public var namespace: String
    /// The `FunctionName` dimension; `local` outside Lambda.
    public var functionName: String

    public static let defaultNamespace = "CognitoChallenge"

    public init(enabled: Bool = true, namespace: String = defaultNamespace, functionName: String = "local") {
        self.enabled = enabled
        self.namespace = namespace
        self.functionName = functionName
    }

    /// Reads the settings; a bad value names its variable.
    public init(environment: [String: String]) throws(ConfigurationError) {
        func value(_ variable: String) -> String? { environment[variable].flatMap { $0.isEmpty ? nil : $0 } }
        switch value("METRICS")?.lowercased() {
        case nil, "on": enabled = true
        case "off": enabled = false
        case let other?: throw .invalid(variable: "METRICS", value: other, expected: "\"on\" or \"off\"")
        }
        namespace = value("METRICS_NAMESPACE") ?? Self.defaultNamespace
        // CloudWatch's rule for namespaces: 1 to 255 of these characters, and not AWS's own prefix.
        let allowed = namespace.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0)
                || ("0"..."9").contains($0) || ".-_/#: ".unicodeScalars.contains($0)
        }
        guard allowed, namespace.utf8.count <= 255, !namespace.hasPrefix("AWS/") else {
            throw .invalid(
                variable: "METRICS_NAMESPACE", value: namespace,
                expected: "up to 255 letters, digits and . - _ / # : or spaces, not starting with AWS/")
        }
        functionName = value("AWS_LAMBDA_FUNCTION_NAME") ?? "local"
    }
}

/// The sign-in funnel of one invocation as one line of CloudWatch's embedded metric format (EMF): a JSON object
/// whose `_aws` member tells CloudWatch which of its other members are metrics and dimensions. Lambda's log pipeline
/// extracts the metrics from the function's standard output with no agent.
///
/// Every line carries every counter (0 or 1) under the `FunctionName` dimension alone, so that alarms and the
/// dashboard see zeros rather than missing data. The counters that moved, and the timings, are also published by
/// trigger, step kind, channel and outcome; a rejected CAPTCHA also by the provider's reason class. Every value of
/// every dimension comes from a small fixed set: never a user, address, phone number, code or token.
public struct SignInMetrics: Sendable {
    public let settings: MetricsSettings

    public init(settings: MetricsSettings) {
        self.settings = settings
    }

    /// Counters, which every line carries.
    public static let counters = [
        "ChallengeCreated", "CodeDelivered", "DeliveryFailed", "DecoyServed", "AnswerCorrect", "AnswerWrong",
        "AnswerExpired", "Throttled", "FailureBudgetExhausted", "StateStoreErrors", "CaptchaRejected", "ColdStart",
    ]
    /// Timings in milliseconds, which a line carries when they were measured.
    public static let timings = ["DeliveryMilliseconds", "StateStoreMilliseconds", "InitMilliseconds"]
    /// The dimensions of the detailed set.
    public static let detailDimensions = ["FunctionName", "Trigger", "StepKind", "Channel", "Outcome"]
    /// CloudWatch's limits: metrics per directive, dimensions per set.
    static let metricLimit = 100
    static let dimensionLimit = 30

    /// The metric line for one invocation, newline included.
    ///
    /// - Parameters:
    ///   - facts: what the invocation did.
    ///   - initDuration: the process's init time, on its first invocation only (a cold start).
    ///   - timestamp: milliseconds since the Unix epoch.
    public func line(for facts: TriggerFacts, initDuration: Duration?, timestamp: Int64) -> [UInt8] {
        var counts = Self.counts(facts)
        counts["ColdStart"] = initDuration == nil ? 0 : 1
        var timings: [(String, Duration)] = []
        if let time = facts.deliveryTime { timings.append(("DeliveryMilliseconds", time)) }
        if let time = facts.stateStoreTime { timings.append(("StateStoreMilliseconds", time)) }

        var members: [(String, JSONValue)] = []
        var directives: [JSONValue] = []
        func directive(_ dimensions: [[String]], _ metrics: [(String, String)]) {
            precondition(metrics.count <= Self.metricLimit && dimensions.allSatisfy { $0.count <= Self.dimensionLimit })
            directives.append([
                "Namespace": .string(settings.namespace),
                "Dimensions": .array(dimensions.map { .array($0.map(JSONValue.string)) }),
                "Metrics": .array(metrics.map { ["Name": .string($0.0), "Unit": .string($0.1)] }),
            ])
        }

        members.append(("FunctionName", .string(settings.functionName)))
        var functionMetrics = Self.counters.map { ($0, "Count") } + timings.map { ($0.0, "Milliseconds") }
        if initDuration != nil { functionMetrics.append(("InitMilliseconds", "Milliseconds")) }
        directive([["FunctionName"]], functionMetrics)

        if let trigger = facts.trigger {
            members += [
                ("Trigger", .string(trigger.rawValue)), ("StepKind", .string(facts.stepKind?.rawValue ?? "none")),
                ("Channel", .string(facts.channel?.rawValue ?? "none")), ("Outcome", .string(facts.outcome?.rawValue ?? "none")),
            ]
            let moved = Self.counters.filter { $0 != "ColdStart" && counts[$0, default: 0] > 0 }
            let detailed = moved.map { ($0, "Count") } + timings.map { ($0.0, "Milliseconds") }
            if !detailed.isEmpty { directive([Self.detailDimensions], detailed) }
        }
        if let reason = facts.captchaRejection {
            members.append(("CaptchaReason", .string(reason)))
            directive([["FunctionName", "CaptchaReason"]], [("CaptchaRejected", "Count")])
        }

        for name in Self.counters { members.append((name, .number(JSONNumber(counts[name, default: 0])))) }
        for (name, time) in timings { members.append((name, Self.milliseconds(time))) }
        if let initDuration { members.append(("InitMilliseconds", Self.milliseconds(initDuration))) }

        let aws: JSONValue = ["Timestamp": .number(JSONNumber(Int(timestamp))), "CloudWatchMetrics": .array(directives)]
        // The writer escapes every control character, so the line holds no line break but its last byte.
        return JSONValue.object(JSONObject([("_aws", aws)] + members)).serialized() + [UInt8(ascii: "\n")]
    }

    /// Which counters the facts move.
    static func counts(_ facts: TriggerFacts) -> [String: Int] {
        var counts: [String: Int] = [:]
        func count(_ name: String, when condition: Bool) { if condition { counts[name] = 1 } }
        let outcome = facts.outcome
        switch facts.trigger {
        case .create?:
            count("ChallengeCreated", when: [.sent, .reused, .throttled, .decoy, .issued].contains(outcome))
            count("CodeDelivered", when: outcome == .sent)
            count("DeliveryFailed", when: outcome == .deliveryFailed)
            count("DecoyServed", when: outcome == .decoy)
            count("Throttled", when: outcome == .throttled)
        case .verify?:
            count("AnswerCorrect", when: outcome == .correct)
            count("AnswerWrong", when: [.wrong, .decoy, .notLiveCode, .replayed, .refused].contains(outcome))
            count("AnswerExpired", when: outcome == .expired)
            count("FailureBudgetExhausted", when: outcome == .budgetExhausted)
            count("CaptchaRejected", when: outcome == .captchaRejected)
        case .define?, nil:
            break
        }
        count("StateStoreErrors", when: outcome == .stateStoreError)
        return counts
    }

    /// A duration in milliseconds with microsecond precision, e.g. `12.345`.
    static func milliseconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1000)
        let literal = "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        return (try? JSONValue(parsing: Array(literal.utf8))) ?? .number(JSONNumber(Int(microseconds / 1000)))
    }
}
