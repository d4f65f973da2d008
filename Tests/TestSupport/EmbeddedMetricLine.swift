import LosslessJSON

/// One line of CloudWatch's embedded metric format, parsed and checked against the specification: a JSON object on
/// one line whose `_aws` member has an integer `Timestamp` (epoch milliseconds) and `CloudWatchMetrics` directives,
/// each with a `Namespace`, `Dimensions` (arrays of at most 30 names) and `Metrics` (at most 100, each with a `Name`
/// and an optional `Unit`), every dimension named a string member of the root and every metric a number (or an array
/// of up to 100 numbers).
public struct EmbeddedMetricLine: Sendable {
    public let root: JSONObject
    public let namespaces: [String]
    /// Every dimension set of every directive.
    public let dimensionSets: [[String]]
    /// Metric name to unit (`""` when none), over every directive.
    public let units: [String: String]

    /// Parses `text` (a line, with or without its final newline) and checks it; throws the first problems found.
    public init(_ text: String) throws(Problem) {
        var body = Substring(text)
        if body.hasSuffix("\n") { body = body.dropLast() }
        guard !body.contains(where: \.isNewline) else { throw Problem("more than one line: \(text)") }
        guard let value = try? JSONValue(parsing: Array(body.utf8)), let root = value.objectValue else {
            throw Problem("not a JSON object: \(body)")
        }
        self.root = root
        guard let aws = root["_aws"]?.objectValue else { throw Problem("no _aws object") }
        guard case .number(let timestamp)? = aws["Timestamp"], let milliseconds = timestamp.intValue,
              milliseconds > 1_500_000_000_000
        else { throw Problem("_aws.Timestamp is not epoch milliseconds: \(aws["Timestamp"]?.text() ?? "none")") }
        guard let directives = aws["CloudWatchMetrics"]?.arrayValue, !directives.isEmpty else {
            throw Problem("_aws.CloudWatchMetrics is not a non-empty array")
        }
        var namespaces: [String] = []
        var dimensionSets: [[String]] = []
        var units: [String: String] = [:]
        for directive in directives {
            guard let directive = directive.objectValue, let namespace = directive["Namespace"]?.stringValue,
                  !namespace.isEmpty
            else { throw Problem("a directive without a Namespace") }
            namespaces.append(namespace)
            guard let sets = directive["Dimensions"]?.arrayValue else { throw Problem("a directive without Dimensions") }
            for set in sets {
                guard let names = set.arrayValue?.compactMap(\.stringValue), names.count == set.arrayValue?.count,
                      names.count <= 30
                else { throw Problem("a dimension set that is not up to 30 names: \(set.text())") }
                for name in names where root[name]?.stringValue == nil {
                    throw Problem("dimension \(name) is not a string member of the root")
                }
                dimensionSets.append(names)
            }
            guard let metrics = directive["Metrics"]?.arrayValue, metrics.count <= 100 else {
                throw Problem("a directive without Metrics, or with more than 100")
            }
            for metric in metrics {
                guard let metric = metric.objectValue, let name = metric["Name"]?.stringValue else {
                    throw Problem("a metric without a Name")
                }
                let unit = metric["Unit"]
                guard unit == nil || unit?.stringValue != nil else { throw Problem("\(name)'s Unit is not a string") }
                switch root[name] {
                case .number?: break
                case .array(let values)? where values.count <= 100 && values.allSatisfy({ if case .number = $0 { true } else { false } }):
                    break
                default: throw Problem("metric \(name) is not a number member of the root")
                }
                units[name] = unit?.stringValue ?? ""
            }
        }
        self.namespaces = namespaces
        self.dimensionSets = dimensionSets
        self.units = units
    }

    /// A metric's value (the first, for an array).
    public func value(_ metric: String) -> Double? {
        switch root[metric] {
        case .number(let number)?: number.doubleValue
        case .array(let values)?: values.first.flatMap { if case .number(let number) = $0 { number.doubleValue } else { nil } }
        default: nil
        }
    }

    /// A dimension's value.
    public func dimension(_ name: String) -> String? { root[name]?.stringValue }

    public struct Problem: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
