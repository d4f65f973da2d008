import ChallengeCrypto

/// The challenges a user answered that have not expired yet, kept in the user's record so that none is accepted
/// twice: `expiresAt:marker` entries separated by spaces, where the marker is the start of the seal's keyed hash
/// (never the challenge).
struct UsedChallenges {
    /// At most this many entries are kept, the newest; more sign-ins than this within one challenge's lifetime
    /// would be a flood, not a user.
    static let capacity = 32

    private(set) var entries: [(expiresAt: Int64, marker: String)]

    /// The entries in `text` that are still live at `now`; anything unreadable is dropped.
    init(_ text: String?, now: Int64) {
        entries = (text ?? "").split(separator: " ").compactMap { entry in
            let parts = entry.split(separator: ":")
            guard parts.count == 2, let expiresAt = Int64(parts[0]), expiresAt > now else { return nil }
            return (expiresAt, String(parts[1]))
        }
    }

    /// What marks `seal` as answered.
    static func marker(for seal: ChallengeSeal) -> String {
        Hex.encode(seal.answerHash.prefix(16))
    }

    func contains(_ marker: String) -> Bool {
        entries.contains { $0.marker == marker }
    }

    mutating func insert(_ marker: String, expiresAt: Int64) {
        entries.append((expiresAt, marker))
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
    }

    var text: String {
        entries.map { "\($0.expiresAt):\($0.marker)" }.joined(separator: " ")
    }
}
