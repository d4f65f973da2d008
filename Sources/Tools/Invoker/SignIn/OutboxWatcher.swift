import ServiceClients

/// Finds the messages a Create delivered to the local outbox files: what the user would read in their inbox or on
/// their phone (codes, and sign-in links with their token in `code`).
struct OutboxWatcher {
    /// The outbox files watched (the email outbox, and the text messages' when they go to another file); empty when
    /// everything goes out through AWS: then nothing is ever found.
    let paths: [String]
    private var seen: [String: Int] = [:]

    init(paths: [String?]) {
        var unique: [String] = []
        for case let path? in paths where !unique.contains(path) { unique.append(path) }
        self.paths = unique
        for path in unique {
            seen[path] = (try? OutboxDelivery.messages(at: path).count) ?? 0
        }
    }

    /// The newest message sent to `userName` since the last call, if any.
    mutating func newMessage(for userName: String) -> OutboxDelivery.SentMessage? {
        var newest: OutboxDelivery.SentMessage?
        for path in paths {
            guard let messages = try? OutboxDelivery.messages(at: path) else { continue }
            let before = seen[path] ?? 0
            seen[path] = messages.count
            // A shorter file than before was truncated or replaced: everything in it is new.
            let fresh = messages.count >= before ? messages[before...] : messages[...]
            if let last = fresh.last(where: { $0.userName == userName }), newest.map({ last.sentAt >= $0.sentAt }) ?? true {
                newest = last
            }
        }
        return newest
    }
}
