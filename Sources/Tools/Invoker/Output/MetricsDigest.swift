import LosslessJSON

/// A metric line (CloudWatch's embedded metric format) in a few words for a transcript: the dimensions that say what
/// happened, then every metric that is not zero, e.g.
/// `Create EMAIL_CODE email sent · ChallengeCreated 1 · CodeDelivered 1 · DeliveryMilliseconds 0.412`.
public enum MetricsDigest {
    public static func describe(_ line: String) -> String {
        guard let root = (try? JSONValue(parsing: Array(line.utf8)))?.objectValue,
              let directives = root["_aws"]?.objectValue?["CloudWatchMetrics"]?.arrayValue
        else { return line }
        var names: [String] = []
        for directive in directives {
            for metric in directive.objectValue?["Metrics"]?.arrayValue ?? [] {
                if let name = metric.objectValue?["Name"]?.stringValue, !names.contains(name) { names.append(name) }
            }
        }
        let dimensions = ["Trigger", "StepKind", "Channel", "Outcome", "CaptchaReason"]
            .compactMap { root[$0]?.stringValue }.filter { $0 != "none" }
        let moved = names.compactMap { name -> String? in
            guard case .number(let value)? = root[name], value.doubleValue != 0 else { return nil }
            return "\(name) \(value.literal)"
        }
        return ([dimensions.joined(separator: " ")] + moved).filter { !$0.isEmpty }.joined(separator: " · ")
    }
}
