import Basics
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

    /// What every line repeats, as bytes written once: the first directive up to its timings, the detailed
    /// directive's opening, and the `FunctionName` member.
    private let functionDirective: [UInt8]
    private let detailDirective: [UInt8]
    private let captchaDirective: [UInt8]
    private let functionNameMember: [UInt8]

    public init(settings: MetricsSettings) {
        self.settings = settings
        let namespace = Self.string(settings.namespace)
        func opening(_ dimensions: [String]) -> [UInt8] {
            precondition(dimensions.count <= Self.dimensionLimit)
            return Array(#"{"Namespace":"#.utf8) + namespace + Array(#","Dimensions":[["#.utf8)
                + Array(dimensions.map { "\"\($0)\"" }.joined(separator: ",").utf8) + Array(#"]],"Metrics":["#.utf8)
        }
        functionDirective = opening(["FunctionName"])
            + Array(Counter.allCases.map { String(decoding: $0.declaration, as: UTF8.self) }.joined(separator: ",").utf8)
        precondition(Counter.allCases.count + Timing.allCases.count <= Self.metricLimit)
        detailDirective = opening(Self.detailDimensions)
        captchaDirective = opening(["FunctionName", "CaptchaReason"]) + Counter.captchaRejected.declaration + Array("]}".utf8)
        functionNameMember = Array(#","FunctionName":"#.utf8) + Self.string(settings.functionName)
    }

    /// Counters, which every line carries.
    public static let counters = Counter.allCases.map(\.name)
    /// Timings in milliseconds, which a line carries when they were measured.
    public static let timings = Timing.allCases.map(\.rawValue)
    /// The dimensions of the detailed set.
    public static let detailDimensions = ["FunctionName", "Trigger", "StepKind", "Channel", "Outcome"]
    /// CloudWatch's limits: metrics per directive, dimensions per set.
    static let metricLimit = 100
    static let dimensionLimit = 30

    /// The counters, in the order every line declares and writes them.
    enum Counter: Int, CaseIterable {
        case challengeCreated, codeDelivered, deliveryFailed, decoyServed, answerCorrect, answerWrong, answerExpired
        case throttled, failureBudgetExhausted, stateStoreErrors, captchaRejected, coldStart

        var name: String {
            switch self {
            case .challengeCreated: "ChallengeCreated"
            case .codeDelivered: "CodeDelivered"
            case .deliveryFailed: "DeliveryFailed"
            case .decoyServed: "DecoyServed"
            case .answerCorrect: "AnswerCorrect"
            case .answerWrong: "AnswerWrong"
            case .answerExpired: "AnswerExpired"
            case .throttled: "Throttled"
            case .failureBudgetExhausted: "FailureBudgetExhausted"
            case .stateStoreErrors: "StateStoreErrors"
            case .captchaRejected: "CaptchaRejected"
            case .coldStart: "ColdStart"
            }
        }

        /// `{"Name":…,"Unit":"Count"}`, as a directive lists it.
        var declaration: [UInt8] { Array(#"{"Name":""#.utf8) + Array(name.utf8) + Array(#"","Unit":"Count"}"#.utf8) }
    }

    /// The counters that moved in one invocation, one bit each.
    struct Moved {
        private var bits: UInt16 = 0

        mutating func insert(_ counter: Counter) { bits |= 1 << counter.rawValue }
        func contains(_ counter: Counter) -> Bool { bits & 1 << counter.rawValue != 0 }
    }

    /// The timings, in the order a line declares and writes those it carries.
    enum Timing: String, CaseIterable {
        case delivery = "DeliveryMilliseconds", stateStore = "StateStoreMilliseconds", initialization = "InitMilliseconds"
    }

    /// The metric line for one invocation, newline included.
    ///
    /// - Parameters:
    ///   - facts: what the invocation did.
    ///   - initDuration: the process's init time, on its first invocation only (a cold start).
    ///   - timestamp: milliseconds since the Unix epoch.
    public func line(for facts: TriggerFacts, initDuration: Duration?, timestamp: Int64) -> [UInt8] {
        var counts = Self.counts(facts)
        if initDuration != nil { counts.insert(.coldStart) }
        var timings: [(Timing, Duration)] = []
        timings.reserveCapacity(3)
        if let time = facts.deliveryTime { timings.append((.delivery, time)) }
        if let time = facts.stateStoreTime { timings.append((.stateStore, time)) }
        if let initDuration { timings.append((.initialization, initDuration)) }

        // Written byte by byte from parts made once: the metric line is on every invocation's path, and a JSON tree
        // of it would cost more than the rest of a Define. Names are ASCII constants; every other string goes
        // through the JSON writer (or is plain ASCII that needs no escape).
        var line: [UInt8] = []
        line.reserveCapacity(2048)
        Self.append(#"{"_aws":{"Timestamp":"#, to: &line)
        Self.appendDecimal(timestamp, to: &line)
        Self.append(#","CloudWatchMetrics":["#, to: &line)
        line += functionDirective
        for (timing, _) in timings { Self.appendDeclaration(of: timing, to: &line, separated: true) }
        Self.append("]}", to: &line)
        if facts.trigger != nil {
            let moved = Counter.allCases.filter { $0 != .coldStart && counts.contains($0) }
            let timed = timings.lazy.map(\.0).filter { $0 != .initialization }
            if !moved.isEmpty || !timed.isEmpty {
                line.append(UInt8(ascii: ","))
                line += detailDirective
                for (position, counter) in moved.enumerated() {
                    if position > 0 { line.append(UInt8(ascii: ",")) }
                    line += Self.declarations[counter.rawValue]
                }
                for (position, timing) in timed.enumerated() {
                    Self.appendDeclaration(of: timing, to: &line, separated: position > 0 || !moved.isEmpty)
                }
                Self.append("]}", to: &line)
            }
        }
        if facts.captchaRejection != nil {
            line.append(UInt8(ascii: ","))
            line += captchaDirective
        }
        Self.append("]}", to: &line)

        line += functionNameMember
        if let trigger = facts.trigger {
            Self.appendMember("Trigger", trigger.rawValue, to: &line)
            Self.appendMember("StepKind", facts.stepKind?.rawValue ?? "none", to: &line)
            Self.appendMember("Channel", facts.channel?.rawValue ?? "none", to: &line)
            Self.appendMember("Outcome", facts.outcome?.rawValue ?? "none", to: &line)
        }
        if let reason = facts.captchaRejection { Self.appendMember("CaptchaReason", reason, to: &line) }
        for counter in Counter.allCases {
            Self.appendName(counter.name, to: &line)
            line.append(counts.contains(counter) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        }
        for (timing, time) in timings {
            Self.appendName(timing.rawValue, to: &line)
            Self.appendMilliseconds(time, to: &line)
        }
        // The writer escapes every control character, so the line holds no line break but its last byte.
        Self.append("}\n", to: &line)
        return line
    }

    /// `text` as a JSON string, escaped by the JSON writer.
    private static func string(_ text: String) -> [UInt8] {
        JSONValue.string(text).serialized()
    }

    /// Each counter's declaration, by its raw value.
    private static let declarations = Counter.allCases.map(\.declaration)

    /// Appends an ASCII constant.
    private static func append(_ text: StaticString, to line: inout [UInt8]) {
        text.withUTF8Buffer { line.append(contentsOf: $0) }
    }

    /// Appends the bytes of `text` as they are, read in place.
    private static func appendUTF8(_ text: String, to line: inout [UInt8]) {
        var text = text
        text.withUTF8 { line.append(contentsOf: $0) }
    }

    /// `,"name":` for a member whose name is an ASCII constant.
    private static func appendName(_ name: String, to line: inout [UInt8]) {
        append(#",""#, to: &line)
        appendUTF8(name, to: &line)
        append(#"":"#, to: &line)
    }

    /// `,"name":"value"`: a value of printable ASCII without quotes or backslashes (every dimension value this
    /// runtime has) is written as it is, anything else through the JSON writer.
    private static func appendMember(_ name: String, _ value: String, to line: inout [UInt8]) {
        appendName(name, to: &line)
        var value = value
        let plain = value.withUTF8 { utf8 in
            utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }
        guard plain else {
            line += string(value)
            return
        }
        line.append(UInt8(ascii: "\""))
        appendUTF8(value, to: &line)
        line.append(UInt8(ascii: "\""))
    }

    /// `{"Name":…,"Unit":"Milliseconds"}`, after a comma when it follows another metric.
    private static func appendDeclaration(of timing: Timing, to line: inout [UInt8], separated: Bool) {
        if separated { line.append(UInt8(ascii: ",")) }
        append(#"{"Name":""#, to: &line)
        appendUTF8(timing.rawValue, to: &line)
        append(#"","Unit":"Milliseconds"}"#, to: &line)
    }

    /// The counters that moved.
    static func counts(_ facts: TriggerFacts) -> Moved {
        var counts = Moved()
        func count(_ counter: Counter, when condition: Bool) { if condition { counts.insert(counter) } }
        let outcome = facts.outcome
        switch facts.trigger {
        case .create?:
            count(.challengeCreated, when: [.sent, .reused, .throttled, .decoy, .issued, .steppedUp].contains(outcome))
            count(.codeDelivered, when: outcome == .sent)
            count(.deliveryFailed, when: outcome == .deliveryFailed)
            count(.decoyServed, when: outcome == .decoy)
            count(.throttled, when: outcome == .throttled)
        case .verify?:
            count(.answerCorrect, when: outcome == .correct)
            count(.answerWrong, when: [.wrong, .decoy, .notLiveCode, .replayed, .refused].contains(outcome))
            count(.answerExpired, when: outcome == .expired)
            count(.failureBudgetExhausted, when: outcome == .budgetExhausted)
            count(.captchaRejected, when: outcome == .captchaRejected)
        case .define?, nil:
            break
        }
        count(.stateStoreErrors, when: outcome == .stateStoreError)
        return counts
    }

    /// A whole number in decimal.
    private static func appendDecimal(_ value: Int64, to line: inout [UInt8]) {
        if value < 0 { line.append(UInt8(ascii: "-")) }
        // The digits from the last, then turned around in place.
        let start = line.count
        var rest = value.magnitude
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        line[start...].reverse()
    }

    /// A duration in milliseconds with three decimals (microsecond precision), e.g. `12.345`.
    private static func appendMilliseconds(_ duration: Duration, to line: inout [UInt8]) {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        appendDecimal(microseconds / 1000, to: &line)
        let fraction = microseconds % 1000
        line += [UInt8(ascii: "."), UInt8(ascii: "0") + UInt8(fraction / 100), UInt8(ascii: "0") + UInt8(fraction / 10 % 10),
                 UInt8(ascii: "0") + UInt8(fraction % 10)]
    }
}
