extension StringProtocol {
    /// This text with each `{name}` that `values` knows replaced by its value, in one pass (a value is never scanned
    /// again); braces around any other text are kept as written.
    public func fillingPlaceholders(_ values: [String: String]) -> String {
        var output = ""
        var rest = self[...]
        while let open = rest.firstIndex(of: "{") {
            output += rest[..<open]
            let afterOpen = rest.index(after: open)
            if let close = rest[afterOpen...].firstIndex(of: "}"), let value = values[String(rest[afterOpen..<close])] {
                output += value
                rest = rest[rest.index(after: close)...]
            } else {
                output += "{"
                rest = rest[afterOpen...]
            }
        }
        return output + rest
    }
}
