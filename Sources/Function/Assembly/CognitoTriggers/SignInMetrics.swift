import Basics
import ChallengeFlows
import LosslessJSON
import Platform

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
    /// The bytes between the timestamp and the timings' values of the shapes of line written so far.
    private let middles = PosixLock(KnownMiddles())

    public init(settings: MetricsSettings) {
        self.settings = settings
        let namespace = Self.string(settings.namespace)
        // Built with appends: `joined(separator:)` runs the standard library's unspecialized code, which looks its
        // types up at run time, a scan of every conformance in the binary at start-up.
        func opening(_ dimensions: [String]) -> [UInt8] {
            precondition(dimensions.count <= Self.dimensionLimit)
            var directive = Array(#"{"Namespace":"#.utf8) + namespace + Array(#","Dimensions":[["#.utf8)
            for (position, dimension) in dimensions.enumerated() {
                if position > 0 { directive.append(UInt8(ascii: ",")) }
                directive += Array("\"\(dimension)\"".utf8)
            }
            return directive + Array(#"]],"Metrics":["#.utf8)
        }
        var counters: [UInt8] = []
        for (position, counter) in Counter.allCases.enumerated() {
            if position > 0 { counters.append(UInt8(ascii: ",")) }
            counters += counter.declaration
        }
        functionDirective = opening(["FunctionName"]) + counters
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
    /// The most shapes of line whose middles are kept; a line of any other shape is written whole each time.
    static let shapeLimit = 64
    /// The most bytes a line has besides its middle: the opening up to the timestamp, the timestamp, every timing
    /// (name and value) and the closing.
    static let variableLimit = 22 + 20 + 3 * (26 + 20) + 2

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

        /// The name as a line's member begins, e.g. `,"DeliveryMilliseconds":`.
        var member: StaticString {
            switch self {
            case .delivery: #","DeliveryMilliseconds":"#
            case .stateStore: #","StateStoreMilliseconds":"#
            case .initialization: #","InitMilliseconds":"#
            }
        }

        /// The timing's bit in ``Shape/timed``.
        var bit: UInt8 {
            switch self {
            case .delivery: 1
            case .stateStore: 2
            case .initialization: 4
            }
        }
    }

    /// All a line depends on but its timestamp and its timings' values: lines of one shape have the same bytes
    /// between those, and the counters that moved follow from the trigger, the outcome and a cold start.
    struct Shape: Hashable {
        let trigger: TriggerFacts.Trigger?
        let stepKind: ChallengeKind?
        let channel: MessageChannel?
        let outcome: TriggerFacts.Outcome?
        let captchaRejection: String?
        /// The timings the line carries, one ``Timing/bit`` each; the initialization timing is a cold start.
        let timed: UInt8

        init(_ facts: TriggerFacts, coldStart: Bool) {
            (trigger, stepKind, channel, outcome) = (facts.trigger, facts.stepKind, facts.channel, facts.outcome)
            captchaRejection = facts.captchaRejection
            var timed: UInt8 = 0
            if facts.deliveryTime != nil { timed |= Timing.delivery.bit }
            if facts.stateStoreTime != nil { timed |= Timing.stateStore.bit }
            if coldStart { timed |= Timing.initialization.bit }
            self.timed = timed
        }

        func carries(_ timing: Timing) -> Bool { timed & timing.bit != 0 }

        /// The shape's place in ``KnownMiddles/lastByTrigger``.
        var triggerSlot: Int {
            switch trigger {
            case .define?: 0
            case .create?: 1
            case .verify?: 2
            case nil: 3
            }
        }

        /// Hashes which timings the line carries and the lengths of the names, in one word, rather than the names'
        /// bytes: cheaper on every line. Equal shapes still hash alike, and the few that differ only in names of one
        /// length are told apart by `==`. The trigger is left out: its names all have six letters.
        func hash(into hasher: inout Hasher) {
            func length(_ name: String?) -> UInt64 { UInt64(truncatingIfNeeded: name?.utf8.count ?? 0) & 0xFF }
            hasher.combine(
                UInt64(timed) | length(stepKind?.rawValue) << 8 | length(channel?.rawValue) << 16
                    | length(outcome?.rawValue) << 24 | length(captchaRejection) << 32)
        }
    }

    /// The metric line for one invocation, newline included.
    ///
    /// - Parameters:
    ///   - facts: what the invocation did.
    ///   - initDuration: the process's init time, on its first invocation only (a cold start).
    ///   - timestamp: milliseconds since the Unix epoch.
    public func line(for facts: TriggerFacts, initDuration: Duration?, timestamp: Int64) -> [UInt8] {
        var line: [UInt8] = []
        appendLine(for: facts, initDuration: initDuration, timestamp: timestamp, to: &line)
        return line
    }

    /// Appends the metric line for one invocation, newline included, to `line`.
    public func appendLine(for facts: TriggerFacts, initDuration: Duration?, timestamp: Int64, to line: inout [UInt8]) {
        // The metric line is on every invocation's path: all of it but the timestamp and the timings' values is
        // written once per shape, and each line copies that middle between them into an array reserved once.
        let shape = Shape(facts, coldStart: initDuration != nil)
        let middle = middles.withLock { known in
            let slot = shape.triggerSlot
            if let last = known.lastByTrigger[slot], last.shape == shape { return last.middle }
            let middle: [UInt8]
            if let kept = known.byShape[shape] {
                middle = kept
            } else {
                middle = self.middle(of: shape)
                if known.byShape.count < Self.shapeLimit { known.byShape[shape] = middle }
            }
            known.lastByTrigger[slot] = KnownMiddle(shape: shape, middle: middle)
            return middle
        }
        line.reserveCapacity(line.count + middle.count + Self.variableLimit)
        // What goes before and after the middle is written on the stack first, so that the array takes three
        // copies rather than a dozen small appends.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.variableLimit) { room in
            var head = LineWriter(room: room)
            head.write(#"{"_aws":{"Timestamp":"#)
            head.writeDecimal(timestamp)
            line.append(contentsOf: head.written)
            line.append(contentsOf: middle)
            var tail = LineWriter(room: room)
            if let time = facts.deliveryTime { tail.write(.delivery, time) }
            if let time = facts.stateStoreTime { tail.write(.stateStore, time) }
            if let initDuration { tail.write(.initialization, initDuration) }
            // The JSON writer escapes every control character, so the line holds no line break but its last byte.
            tail.write("}\n")
            line.append(contentsOf: tail.written)
        }
    }

    /// The bytes of a line of `shape` from the end of its timestamp to its timings' members: its directives, its
    /// dimension members and its counters.
    private func middle(of shape: Shape) -> [UInt8] {
        var counts = Self.counts(trigger: shape.trigger, outcome: shape.outcome)
        if shape.carries(.initialization) { counts.insert(.coldStart) }
        let timings = Timing.allCases.filter(shape.carries)

        // Names are ASCII constants; every other string goes through the JSON writer (or is plain ASCII that needs
        // no escape).
        var line: [UInt8] = []
        Self.append(#","CloudWatchMetrics":["#, to: &line)
        line += functionDirective
        for timing in timings { Self.appendDeclaration(of: timing, to: &line, separated: true) }
        Self.append("]}", to: &line)
        if shape.trigger != nil {
            let moved = Counter.allCases.filter { $0 != .coldStart && counts.contains($0) }
            let timed = timings.filter { $0 != .initialization }
            if !moved.isEmpty || !timed.isEmpty {
                line.append(UInt8(ascii: ","))
                line += detailDirective
                for (position, counter) in moved.enumerated() {
                    if position > 0 { line.append(UInt8(ascii: ",")) }
                    line += counter.declaration
                }
                for (position, timing) in timed.enumerated() {
                    Self.appendDeclaration(of: timing, to: &line, separated: position > 0 || !moved.isEmpty)
                }
                Self.append("]}", to: &line)
            }
        }
        if shape.captchaRejection != nil {
            line.append(UInt8(ascii: ","))
            line += captchaDirective
        }
        Self.append("]}", to: &line)

        line += functionNameMember
        if let trigger = shape.trigger {
            Self.appendMember("Trigger", trigger.rawValue, to: &line)
            Self.appendMember("StepKind", shape.stepKind?.rawValue ?? "none", to: &line)
            Self.appendMember("Channel", shape.channel?.rawValue ?? "none", to: &line)
            Self.appendMember("Outcome", shape.outcome?.rawValue ?? "none", to: &line)
        }
        if let reason = shape.captchaRejection { Self.appendMember("CaptchaReason", reason, to: &line) }
        for counter in Counter.allCases {
            Self.appendName(counter.name, to: &line)
            line.append(counts.contains(counter) ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        }
        return line
    }

    /// `text` as a JSON string, escaped by the JSON writer.
    private static func string(_ text: String) -> [UInt8] {
        JSONValue.string(text).serialized()
    }

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

    /// The counters that moved in an invocation of `trigger` that ended with `outcome`.
    static func counts(trigger: TriggerFacts.Trigger?, outcome: TriggerFacts.Outcome?) -> Moved {
        var counts = Moved()
        func count(_ counter: Counter, when condition: Bool) { if condition { counts.insert(counter) } }
        switch trigger {
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
}

/// The middles of the shapes of line written so far, up to ``SignInMetrics/shapeLimit`` shapes (the first ones seen,
/// which in a sign-in funnel are nearly all there are), and the last shape of each trigger: a trigger's lines mostly
/// repeat their shape, and comparing one shape costs less than hashing it.
private struct KnownMiddles {
    var byShape: [SignInMetrics.Shape: [UInt8]] = [:]
    /// By ``SignInMetrics/Shape/triggerSlot``.
    var lastByTrigger: [KnownMiddle?] = [nil, nil, nil, nil]
}

/// One shape of line and its middle.
private final class KnownMiddle: Sendable {
    let shape: SignInMetrics.Shape
    let middle: [UInt8]

    init(shape: SignInMetrics.Shape, middle: [UInt8]) {
        self.shape = shape
        self.middle = middle
    }
}

/// Writes bytes of a metric line one after another into room set aside for them, and stops the process rather than
/// write past its end.
private struct LineWriter {
    let room: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes are written.
    private(set) var count = 0

    /// The bytes written.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: room[..<count]) }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        precondition(bytes.count <= room.count - count, "a metric line outgrew the room set aside for it")
        guard let source = bytes.baseAddress, let target = room.baseAddress else { return }
        (target + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func write(_ text: StaticString) {
        text.withUTF8Buffer { write($0) }
    }

    /// `,"DeliveryMilliseconds":12.345` and the like: milliseconds with three decimals (microsecond precision).
    mutating func write(_ timing: SignInMetrics.Timing, _ time: Duration) {
        write(timing.member)
        let (seconds, attoseconds) = time.components
        writeDecimal(max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000), thousandths: true)
    }

    /// A whole number in decimal; with `thousandths`, a number of thousandths as a decimal fraction with three
    /// decimals, e.g. `12.345` for 12345 or `0.005` for 5.
    mutating func writeDecimal(_ value: Int64, thousandths: Bool = false) {
        if value < 0 { write("-") }
        // The digits from the last, into room on the stack for the longest (19) and a point.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.endIndex
            var rest = value.magnitude
            var figures = 0
            repeat {
                if thousandths && figures == 3 {
                    start -= 1
                    digits[start] = UInt8(ascii: ".")
                }
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                figures += 1
            } while rest > 0 || thousandths && figures < 4
            write(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}
