import LosslessJSON

/// A built-in trigger response that names the members it sets, so that the event's bytes are written with them
/// straight from its fields (`CognitoEvent.serializedDirectly()`), without building the response object as a tree.
///
/// Its `write(into:)` sets the same members in the same order (`writeMembers(into:)`), so both ways give one text.
protocol ResponseMembers: TriggerResponse {
    /// The names of the members the response sets, in the order it sets them.
    static var memberNames: [String] { get }
    /// What it sets the member at `position` of `memberNames` to; nil when it leaves that member as it arrived.
    func member(at position: Int) -> ResponseMember?
}

/// The value a response sets one of its members to.
enum ResponseMember {
    case string(String)
    case bool(Bool)
    case null
    /// An object of strings, written with its members sorted by key so that the text is stable.
    case strings([String: String])

    var json: JSONValue {
        switch self {
        case .string(let string): .string(string)
        case .bool(let bool): .bool(bool)
        case .null: .null
        case .strings(let map): .stringMap(map)
        }
    }

    /// Writes the value as `json` would be written.
    func write(to writer: inout JSONMemberWriter) {
        switch self {
        case .string(let string):
            writer.string(string)
        case .bool(let bool):
            writer.value(.bool(bool))
        case .null:
            writer.value(.null)
        case .strings(let map):
            writer.object { members in
                for (key, value) in JSONValue.sortedByKey(map) {
                    members.key(key)
                    members.string(value)
                }
            }
        }
    }
}

extension ResponseMembers {
    /// Sets the members this response sets, in order: what `write(into:)` does.
    func writeMembers(into object: inout JSONObject) {
        for (position, name) in Self.memberNames.enumerated() {
            if let member = member(at: position) { object[name] = member.json }
        }
    }

    /// Writes the response object: the `incoming` members in their order, each one this response sets with its
    /// value, then those it sets that were not there, in its order. The same members, in the same order, as
    /// `write(into:)` leaves in a copy of `incoming`.
    func writeObject(over incoming: JSONObject, to writer: inout JSONMemberWriter) {
        var replaced: UInt32 = 0
        incoming.withMembers { members in
            for member in members {
                writer.key(member.key)
                if let position = Self.position(of: member.key), let value = self.member(at: position) {
                    replaced |= 1 << position
                    value.write(to: &writer)
                } else {
                    writer.value(member.value)
                }
            }
        }
        for (position, name) in Self.memberNames.enumerated() where replaced & (1 << position) == 0 {
            guard let value = member(at: position) else { continue }
            writer.key(name)
            value.write(to: &writer)
        }
    }

    /// The position in `memberNames` of the name that is `key` byte for byte (as `JSONObject` tells keys apart).
    private static func position(of key: String) -> Int? {
        memberNames.firstIndex { $0.hasSameUTF8(as: key) }
    }
}
