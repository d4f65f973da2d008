/// A JSON object that keeps its members in the order they were read or added.
///
/// Keys are told apart by their exact Unicode scalars, as JSON does: `"é"` and `"e\u0301"` are two members,
/// although Swift's `==` calls the two strings equal.
///
/// Members live in one array, which gives the order. An object of a few members is searched by a linear scan,
/// faster than hashing at that size. Past `indexThreshold` (8) members the object also keeps a hash index from
/// key to position, so that lookup, replacement and appending stay O(1) however many keys an untrusted document
/// (`clientMetadata`) brings: parsing n keys costs O(n), not O(n²). Removing a member stays O(n), as removing
/// from the array is.
public struct JSONObject: Sendable, Sequence {
    public typealias Member = (key: String, value: JSONValue)

    /// The most members an object holds before it builds its hash index.
    static let indexThreshold = 8

    private var members: [Member]
    /// Each key's position in `members`: present exactly when there are more than `indexThreshold` members.
    private var positions: [ExactKey: Int]?

    public init() {
        members = []
    }

    /// An object of these members in order; a key given twice keeps its first place and its last value.
    public init(_ members: [(String, JSONValue)]) {
        self.members = []
        self.members.reserveCapacity(members.count)
        for (key, value) in members { self[key] = value }
    }

    /// An object of members whose keys are known to differ (a dictionary's, say), in their order: no key is looked
    /// up as it is added.
    package init(distinctMembers: [Member]) {
        members = distinctMembers
        if members.count > Self.indexThreshold { buildIndex() }
    }

    /// The same for any sequence of members.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.init(Array(members))
    }

    /// The member's value, or nil when the key is absent (a present `null` is `.null`).
    /// Assigning nil removes the member; assigning a value replaces it in place or appends it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = position(of: key) else { return nil }
            return members[index].value
        }
        set {
            if let newValue {
                setMember(key, newValue)
            } else if let index = position(of: key) {
                removeMember(at: index)
            }
        }
    }

    /// Sets a member as the parser reads it: the same as assigning a value through the subscript (a key read again
    /// keeps its first place and takes the last value), without going through an optional.
    mutating func setMember(_ key: String, _ value: JSONValue) {
        if positions != nil {
            // One hash in the usual case, a new key: claim the position at the end, and give it back when the key
            // was already there (a replacement keeps the member's place).
            let exactKey = ExactKey(key)
            if let existing = positions?.updateValue(members.count, forKey: exactKey) ?? nil {
                positions?[exactKey] = existing
                members[existing].value = value
            } else {
                members.append((key, value))
            }
        } else if let index = position(of: key) {
            members[index].value = value
        } else {
            appendMember(key, value)
        }
    }

    /// Makes room for `capacity` members without reallocating as they are added.
    mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }
    public var isEmpty: Bool { members.isEmpty }

    public func makeIterator() -> IndexingIterator<[Member]> {
        members.makeIterator()
    }

    /// Calls `body` with the members in order, in place.
    package func withMembers<Result>(_ body: (UnsafeBufferPointer<Member>) -> Result) -> Result {
        members.withUnsafeBufferPointer(body)
    }

    private func position(of key: String) -> Int? {
        if let positions { return positions[ExactKey(key)] }
        // Only keys are read: a member is not copied out of the array to be compared.
        return members.withUnsafeBufferPointer { members in
            members.indices.first { members[$0].key.hasSameUTF8(as: key) }
        }
    }

    /// Appends a key known to be absent to an object without an index, building the index if the object has grown
    /// past `indexThreshold`.
    private mutating func appendMember(_ key: String, _ value: JSONValue) {
        members.append((key, value))
        if members.count > Self.indexThreshold { buildIndex() }
    }

    /// Builds the hash index of an object that has grown past `indexThreshold`.
    private mutating func buildIndex() {
        var index: [ExactKey: Int] = [:]
        index.reserveCapacity(members.count * 2)
        for (position, member) in members.enumerated() { index[ExactKey(member.key)] = position }
        positions = index
    }

    private mutating func removeMember(at index: Int) {
        let removed = members.remove(at: index)
        guard positions != nil else { return }
        if members.count <= Self.indexThreshold {
            positions = nil
            return
        }
        positions?[ExactKey(removed.key)] = nil
        // The members after the removed one moved down by one: adjust their positions without rehashing keys.
        positions?.values.mutateAll { if $0 > index { $0 -= 1 } }
    }
}

extension JSONObject: Equatable {
    /// Objects are equal when they hold the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.members.allSatisfy { member in rhs[member.key] == member.value }
    }
}

/// A dictionary key that hashes and compares a string by its UTF-8 bytes, as JSON tells keys apart.
/// `String`'s own `Hashable` follows canonical equivalence, which would merge `"é"` and `"e\u{301}"`.
///
/// `Hasher` is seeded at random per process, so an attacker cannot choose keys that collide.
private struct ExactKey: Hashable, Sendable {
    let string: String

    init(_ string: String) {
        self.string = string
    }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool {
        lhs.string.hasSameUTF8(as: rhs.string)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = string.utf8.withContiguousStorageIfAvailable { utf8 in
            hasher.combine(bytes: UnsafeRawBufferPointer(utf8))
        }
        if hashed == nil {
            Array(string.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}

extension MutableCollection {
    /// Applies `update` to every element in place.
    fileprivate mutating func mutateAll(_ update: (inout Element) -> Void) {
        var position = startIndex
        while position != endIndex {
            update(&self[position])
            formIndex(after: &position)
        }
    }
}
