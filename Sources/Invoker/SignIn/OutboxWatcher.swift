import EmailDelivery

/// Finds the codes a Create delivered to the local outbox file: what the user would read in their inbox.
struct OutboxWatcher {
    /// nil when codes go out by email: then nothing is ever found.
    let path: String?
    private var seen = 0

    init(path: String?) {
        self.path = path
        seen = path.flatMap { try? OutboxDelivery.messages(at: $0).count } ?? 0
    }

    /// The newest code sent to `userName` since the last call, if any.
    mutating func newCode(for userName: String) -> String? {
        guard let path, let messages = try? OutboxDelivery.messages(at: path) else { return nil }
        defer { seen = messages.count }
        // A shorter file than before was truncated or replaced: everything in it is new.
        let fresh = messages.count >= seen ? messages[seen...] : messages[...]
        return fresh.last { $0.userName == userName }?.code
    }
}
