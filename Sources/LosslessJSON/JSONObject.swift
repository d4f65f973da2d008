/// A JSON object that keeps its members in the order they were read or added.
///
/// Keys are told apart by their exact Unicode scalars, as JSON does: `"é"` and `"e\u0301"` are two members,
/// although Swift's `==` calls the two strings equal.
///
/// Cognito events hold a few dozen keys at most, so members live in one array and lookup is a linear scan:
/// faster than hashing at this size, and order comes for free.
public struct JSONObject: Sendable, Sequence {
    public typealias Member = (key: String, value: JSONValue)

    private var members: [Member]

    public init() {
        members = []
    }

    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.members = []
        for (key, value) in members { self[key] = value }
    }

    /// The member's value, or nil when the key is absent (a present `null` is `.null`).
    /// Assigning nil removes the member; assigning a value replaces it in place or appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key.hasSameUTF8(as: key) { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key.hasSameUTF8(as: key) }) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }
}

extension JSONObject: Equatable {
    /// Objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
    }
}
