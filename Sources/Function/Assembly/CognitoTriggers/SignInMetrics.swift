import ChallengeFlows
import LosslessJSON
import Settings

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
        let value = EnvironmentReader(environment).value
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

    /// The namespace and the function name as JSON strings, written once.
    private let namespace: [UInt8]
    private let functionName: [UInt8]

    public init(settings: MetricsSettings) {
        self.settings = settings
        namespace = Self.string(settings.namespace)
        functionName = Self.string(settings.functionName)
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
        if let initDuration { timings.append(("InitMilliseconds", initDuration)) }

        // Written byte by byte: the metric line is on every invocation's path, and a JSON tree of it would cost
        // more than the rest of a Define. Names are ASCII constants; every other string goes through the JSON writer.
        var line: [UInt8] = []
        line.reserveCapacity(1536)
        line += #"{"_aws":{"Timestamp":"#.utf8
        line += String(timestamp).utf8
        line += #","CloudWatchMetrics":["#.utf8
        var directives = 0
        func directive(_ dimensions: [String], _ metrics: [(name: String, unit: String)]) {
            precondition(metrics.count <= Self.metricLimit && dimensions.count <= Self.dimensionLimit)
            if directives > 0 { line.append(UInt8(ascii: ",")) }
            directives += 1
            line += #"{"Namespace":"#.utf8
            line += namespace
            line += #","Dimensions":[["#.utf8
            line += dimensions.map { "\"\($0)\"" }.joined(separator: ",").utf8
            line += #"]],"Metrics":["#.utf8
            line += metrics.map { #"{"Name":""# + $0.name + #"","Unit":""# + $0.unit + #""}"# }.joined(separator: ",").utf8
            line += "]}".utf8
        }
        func member(_ name: String, _ value: [UInt8]) {
            line += ",\"\(name)\":".utf8
            line += value
        }

        let timed = timings.map { (name: $0.0, unit: "Milliseconds") }
        directive(["FunctionName"], Self.counters.map { (name: $0, unit: "Count") } + timed)
        if facts.trigger != nil {
            let moved = Self.counters.filter { $0 != "ColdStart" && counts[$0, default: 0] > 0 }
            let detailed = moved.map { (name: $0, unit: "Count") } + timed.filter { $0.name != "InitMilliseconds" }
            if !detailed.isEmpty { directive(Self.detailDimensions, detailed) }
        }
        if facts.captchaRejection != nil { directive(["FunctionName", "CaptchaReason"], [("CaptchaRejected", "Count")]) }
        line += "]}".utf8

        member("FunctionName", functionName)
        if let trigger = facts.trigger {
            member("Trigger", Self.string(trigger.rawValue))
            member("StepKind", Self.string(facts.stepKind?.rawValue ?? "none"))
            member("Channel", Self.string(facts.channel?.rawValue ?? "none"))
            member("Outcome", Self.string(facts.outcome?.rawValue ?? "none"))
        }
        if let reason = facts.captchaRejection { member("CaptchaReason", Self.string(reason)) }
        for name in Self.counters { member(name, Array(String(counts[name, default: 0]).utf8)) }
        for (name, time) in timings { member(name, Array(Self.milliseconds(time).utf8)) }
        // The writer escapes every control character, so the line holds no line break but its last byte.
        line += "}\n".utf8
        return line
    }

    /// `text` as a JSON string, escaped by the JSON writer.
    private static func string(_ text: String) -> [UInt8] {
        JSONValue.string(text).serialized()
    }

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
    /// Milliseconds with three decimals, e.g. `12.345`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
