import LosslessJSON

/// Reads the fields of a trigger event that the typed events hold straight from its bytes, without a tree: the bytes
/// are checked as JSON front to back, the members nobody reads only checked, and the `response` value (small) read
/// as a tree for the response written over it.
///
/// It reads only what it reads exactly as the tree decoder (`FieldReader`) would. A member it reads that holds
/// another type or occurs twice (the tree keeps the last one), a string map with a key twice, a required field
/// that is missing, no `response` member or one twice, bytes that are not JSON: any of these gives nil, and the
/// event is read through the tree, which gives the same event or names the problem.
enum EventFields {
    /// What it reads: the header, the request's fields, the `response` value as it arrived and where that value lies
    /// in the bytes. A tuple, so that the reader takes it apart into the typed event without copying any part.
    typealias Values = (header: EventHeader, request: RequestFields, response: JSONValue, responseRange: Range<Int>)

    /// The event in `bytes`, or nil when it must be read through the tree.
    static func read(_ bytes: [UInt8]) -> Values? {
        bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer)
            return try? read(&cursor, in: bytes)
        }
    }

    /// The root members it reads.
    private enum Member: Int {
        case version, triggerSource, region, userPoolId, userName, callerContext, request, response

        /// The member `key` names; nil for any other key.
        init?(_ key: JSONString) {
            let named: (Self, StaticString)? = switch key.lengthAndFirstByte {
            case (6, _): (.region, "region")
            case (7, UInt8(ascii: "v")): (.version, "version")
            case (7, _): (.request, "request")
            case (8, UInt8(ascii: "u")): (.userName, "userName")
            case (8, _): (.response, "response")
            case (10, _): (.userPoolId, "userPoolId")
            case (13, UInt8(ascii: "t")): (.triggerSource, "triggerSource")
            case (13, _): (.callerContext, "callerContext")
            default: nil
            }
            guard let named, key.matches(named.1) else { return nil }
            self = named.0
        }
    }

    /// Reads the event `cursor` walks over `bytes`.
    private static func read(_ cursor: inout JSONCursor, in bytes: [UInt8]) throws(JSONParseError) -> Values? {
        try cursor.beginDocument()
        guard cursor.nextKind() == .object else { return nil }
        try cursor.beginObject()
        var version, region, userPoolId, userName: String?
        var triggerSource: TriggerSource?
        var callerContext: Range<Int>?
        var request: RequestFields?
        var response: (value: JSONValue, range: Range<Int>)?
        var seen = MemberSet()
        while let key = try cursor.nextMember() {
            guard let member = Member(key) else {
                try cursor.skipValue()
                continue
            }
            guard seen.insert(member.rawValue) else { return nil }
            switch member {
            case .version: guard try cursor.read(&version) else { return nil }
            case .triggerSource:
                // Matched in place: an unknown or mistyped one is left to the tree, which names it.
                guard cursor.nextKind() == .string,
                    let position = try cursor.readStringInPlace().position(in: TriggerSource.eventValues)
                else { return nil }
                triggerSource = TriggerSource.allCases[position % TriggerSource.allCases.count]
            case .region: guard try cursor.read(&region) else { return nil }
            case .userPoolId: guard try cursor.read(&userPoolId) else { return nil }
            case .userName: guard try cursor.read(&userName) else { return nil }
            case .callerContext:
                switch cursor.nextKind() {
                case .null: try cursor.skipValue()
                case .object:
                    // Checked now, read when asked for (the triggers never ask).
                    let start = cursor.offset
                    guard try CallerContext(&cursor, keepingValues: false) != nil else { return nil }
                    callerContext = start..<cursor.offset
                default: return nil
                }
            case .request:
                guard cursor.nextKind() == .object, let fields = try RequestFields(&cursor) else { return nil }
                request = fields
            case .response:
                let start = cursor.offset
                guard let value = try cursor.readResponse() else { return nil }
                response = (value, start..<cursor.offset)
            }
        }
        try cursor.endDocument()
        // Each field moved, not copied, into the one it is part of.
        guard let triggerSource, let userName = consume userName, let request = consume request,
            let response = consume response
        else { return nil }
        let header = EventHeader(
            version: consume version, triggerSource: triggerSource, region: consume region,
            userPoolId: consume userPoolId, userName: userName,
            callerContext: callerContext.map { .unread(bytes: bytes, range: $0) } ?? .read(CallerContext()))
        return (header, request, response.value, response.range)
    }
}

/// The fields of any trigger's `request` (a Define request has no `challengeName`, `privateChallengeParameters` or
/// `challengeAnswer`); each one nil when absent or null.
struct RequestFields {
    var userAttributes: [String: String]?
    var session: [SessionEntry]?
    var clientMetadata: [String: String]?
    var userNotFound: Bool?
    var challengeName: String?
    var privateChallengeParameters: [String: String]?
    var challengeAnswer: String?

    private enum Member: Int {
        case userAttributes, session, clientMetadata, userNotFound, challengeName, privateChallengeParameters
        case challengeAnswer

        /// The member `key` names; nil for any other key.
        init?(_ key: JSONString) {
            let named: (Self, StaticString)? = switch key.lengthAndFirstByte {
            case (7, _): (.session, "session")
            case (12, _): (.userNotFound, "userNotFound")
            case (13, _): (.challengeName, "challengeName")
            case (14, UInt8(ascii: "u")): (.userAttributes, "userAttributes")
            case (14, _): (.clientMetadata, "clientMetadata")
            case (15, _): (.challengeAnswer, "challengeAnswer")
            case (26, _): (.privateChallengeParameters, "privateChallengeParameters")
            default: nil
            }
            guard let named, key.matches(named.1) else { return nil }
            self = named.0
        }
    }

    /// Reads the object the cursor is at.
    fileprivate init?(_ cursor: inout JSONCursor) throws(JSONParseError) {
        try cursor.beginObject()
        var seen = MemberSet()
        while let key = try cursor.nextMember() {
            guard let member = Member(key) else {
                try cursor.skipValue()
                continue
            }
            guard seen.insert(member.rawValue) else { return nil }
            let read = switch member {
            case .userAttributes: try cursor.read(&userAttributes)
            case .session: try cursor.read(&session)
            case .clientMetadata: try cursor.read(&clientMetadata)
            case .userNotFound: try cursor.read(&userNotFound)
            case .challengeName: try cursor.read(&challengeName)
            case .privateChallengeParameters: try cursor.read(&privateChallengeParameters)
            case .challengeAnswer: try cursor.read(&challengeAnswer)
            }
            guard read else { return nil }
        }
    }
}

/// Where an event header's caller context comes from: read already, or the event's bytes with where its
/// `callerContext` object lies, checked to read when the event was.
enum CallerContextSource: Sendable {
    case read(CallerContext)
    case unread(bytes: [UInt8], range: Range<Int>)

    var context: CallerContext {
        switch self {
        case .read(let context):
            return context
        case .unread(let bytes, let range):
            return bytes.withUnsafeBufferPointer { buffer in
                var cursor = JSONCursor(UnsafeBufferPointer(rebasing: buffer[range]))
                // The object was checked as the event was read, so it reads.
                return (try? CallerContext(&cursor, keepingValues: true)).flatMap { $0 } ?? CallerContext()
            }
        }
    }
}

extension CallerContext {
    /// Reads the object the cursor is at; nil for one of its own members given twice or holding something other than
    /// a string or null. With `keepingValues` false it checks the same and keeps nothing (an empty context).
    fileprivate init?(_ cursor: inout JSONCursor, keepingValues: Bool) throws(JSONParseError) {
        self.init()
        try cursor.beginObject()
        var seen = MemberSet()
        while let key = try cursor.nextMember() {
            // The two names differ in length.
            let named: (Int, StaticString)? = switch key.lengthAndFirstByte.length {
            case 13: (0, "awsSdkVersion")
            case 8: (1, "clientId")
            default: nil
            }
            guard let named, key.matches(named.1) else {
                try cursor.skipValue()
                continue
            }
            guard seen.insert(named.0) else { return nil }
            let read = if named.0 == 0 {
                try cursor.read(&awsSdkVersion, keeping: keepingValues)
            } else {
                try cursor.read(&clientId, keeping: keepingValues)
            }
            guard read else { return nil }
        }
    }
}

extension SessionEntry {
    /// Reads the object the cursor is at; nil when `challengeName` is missing.
    fileprivate init?(_ cursor: inout JSONCursor) throws(JSONParseError) {
        try cursor.beginObject()
        var name, metadata: String?
        var result: Bool?
        var seen = MemberSet()
        while let key = try cursor.nextMember() {
            // The three names differ in length.
            let named: (Int, StaticString)? = switch key.lengthAndFirstByte.length {
            case 13: (0, "challengeName")
            case 15: (1, "challengeResult")
            case 17: (2, "challengeMetadata")
            default: nil
            }
            guard let named, key.matches(named.1) else {
                try cursor.skipValue()
                continue
            }
            guard seen.insert(named.0) else { return nil }
            let read = switch named.0 {
            case 0: try cursor.read(&name)
            case 1: try cursor.read(&result)
            default: try cursor.read(&metadata)
            }
            guard read else { return nil }
        }
        guard let name else { return nil }
        // As the tree decoder reads it: a null result did not succeed.
        self.init(challengeName: ChallengeName(rawValue: name), challengeResult: result ?? false, challengeMetadata: metadata)
    }
}

/// The members of one object read so far, by position, so that a member read twice is noticed.
private struct MemberSet {
    private var bits: UInt32 = 0

    /// False when `position` was already there.
    mutating func insert(_ position: Int) -> Bool {
        let bit: UInt32 = 1 << position
        defer { bits |= bit }
        return bits & bit == 0
    }
}

/// An empty map with room for eight members, which every string map read starts from: its first insert copies the
/// empty table, so the attributes a user has fit at once instead of the map growing (and hashing again) from one.
/// `init(minimumCapacity:)` and `reserveCapacity(_:)` would make the same room, but the standard library does not
/// specialize either: each call would look the storage's generic metadata up in the runtime's cache.
private let roomForEightStrings: [String: String] = {
    var map: [String: String] = [:]
    map.reserveCapacity(8)
    return map
}()

extension JSONCursor {
    /// Reads a string, or null as nil, into `value` (only moving past it unless `keeping`); false, reading nothing,
    /// for a value of another type.
    fileprivate mutating func read(_ value: inout String?, keeping: Bool = true) throws(JSONParseError) -> Bool {
        switch nextKind() {
        case .string: if keeping { value = try readString() } else { try skipValue() }
        case .null: try skipValue()
        default: return false
        }
        return true
    }

    /// Reads a boolean, or null as nil, into `value`; false, reading nothing, for a value of another type.
    fileprivate mutating func read(_ value: inout Bool?) throws(JSONParseError) -> Bool {
        switch nextKind() {
        case .boolean: value = try readBool()
        case .null: try skipValue()
        default: return false
        }
        return true
    }

    /// Reads an object of strings (null members left out), or null as nil, into `map`; false for a value of another
    /// type, a member of another type, or a key read twice (where the tree keeps one member, the map another).
    fileprivate mutating func read(_ map: inout [String: String]?) throws(JSONParseError) -> Bool {
        switch nextKind() {
        case .object: break
        case .null: try skipValue(); return true
        default: return false
        }
        try beginObject()
        var strings = roomForEightStrings
        while let key = try nextMember() {
            switch nextKind() {
            case .string: guard strings.updateValue(try readString(), forKey: key.string) == nil else { return false }
            case .null: guard strings[key.string] == nil else { return false }; try skipValue()
            default: return false
            }
        }
        map = strings
        return true
    }

    /// Reads the `response` value as the tree reads it; an object member by member, where a key that names a field
    /// of a trigger's response is that name as static text, which costs no copy. Nil for an object with a key twice,
    /// whose member the tree decides.
    fileprivate mutating func readResponse() throws(JSONParseError) -> JSONValue? {
        guard nextKind() == .object else { return try readValue() }
        try beginObject()
        var members: [JSONObject.Member] = []
        members.reserveCapacity(4)
        while let key = try nextMember() {
            let name = responseFieldName(key) ?? key.string
            // Swift's `==` tells two keys apart only when their bytes differ, and then they do.
            guard !members.contains(where: { $0.key == name }) else { return nil }
            members.append((name, try readValue()))
        }
        return .object(JSONObject(distinctMembers: members))
    }

    /// The name of a field that Define's, Create's or Verify's response reads, when `key` is one; nil otherwise.
    private func responseFieldName(_ key: JSONString) -> String? {
        let name: String? = switch key.lengthAndFirstByte {
        case (11, _): "issueTokens"
        case (13, UInt8(ascii: "c")): "challengeName"
        case (13, _): "answerCorrect"
        case (17, _): "challengeMetadata"
        case (18, _): "failAuthentication"
        case (25, _): "publicChallengeParameters"
        case (26, _): "privateChallengeParameters"
        default: nil
        }
        guard let name, key.matches(name) else { return nil }
        return name
    }

    /// Reads the session's entries, or null as nil, into `session`; false for a value of another type or an entry
    /// that is not an object of the right fields.
    fileprivate mutating func read(_ session: inout [SessionEntry]?) throws(JSONParseError) -> Bool {
        switch nextKind() {
        case .array: break
        case .null: try skipValue(); return true
        default: return false
        }
        try beginArray()
        var entries: [SessionEntry] = []
        while try nextElement() {
            guard nextKind() == .object, let entry = try SessionEntry(&self) else { return false }
            entries.append(entry)
        }
        session = entries
        return true
    }
}
