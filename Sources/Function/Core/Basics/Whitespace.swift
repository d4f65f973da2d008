extension StringProtocol {
    /// This text without its leading and trailing white space.
    public func trimmingWhitespace() -> SubSequence {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
