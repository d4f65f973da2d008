import ChallengeCrypto

/// What a later step needs to know about an issued challenge, without its answer: which step it was, when it
/// expires, and a keyed hash of the expected answer.
///
/// Travels as `challengeMetadata` (seen by Define and later Creates) and as `privateChallengeParameters` (seen by
/// Verify). Both are server-side, but either may end up in someone's log, so neither holds the answer itself.
public struct ChallengeSeal: Sendable, Equatable {
    public let kind: ChallengeKind
    /// The step's position among the flow's custom steps.
    public let stepIndex: Int
    /// Unix time (seconds) after which the answer is no longer accepted.
    public let expiresAt: Int64
    /// HMAC-SHA256 over the normalised answer and everything it is bound to.
    public let answerHash: [UInt8]
    /// Which key made `answerHash` (see ``ChallengeKeys``); nil in seals written before key ids existed.
    public let keyID: String?

    public init(kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, answerHash: [UInt8], keyID: String?) {
        self.kind = kind
        self.stepIndex = stepIndex
        self.expiresAt = expiresAt
        self.answerHash = answerHash
        self.keyID = keyID
    }

    // MARK: challengeMetadata

    /// `KIND:step:expiresAt:hash:keyID`, e.g. `EMAIL_CODE:0:1700000180:9f86…:1a2b3c4d`.
    public var metadata: String {
        // Written straight into a string of the exact length: every Create and Define writes or reads a seal.
        let stepIndex = Int64(stepIndex)
        let length = kind.rawValue.utf8.count + DecimalText.length(of: stepIndex) + DecimalText.length(of: expiresAt)
            + 2 * answerHash.count + 3 + (keyID.map { 1 + $0.utf8.count } ?? 0)
        return String(unsafeUninitializedCapacity: length) { text in
            var writer = TextWriter(text: text)
            writer.append(kind.rawValue.utf8)
            writer.append(UInt8(ascii: ":"))
            writer.appendDecimal(stepIndex)
            writer.append(UInt8(ascii: ":"))
            writer.appendDecimal(expiresAt)
            writer.append(UInt8(ascii: ":"))
            writer.appendHex(answerHash)
            if let keyID {
                writer.append(UInt8(ascii: ":"))
                writer.append(keyID.utf8)
            }
            return writer.count
        }
    }

    /// Reads metadata this package wrote (with or without a key id); nil for anything else.
    public init?(metadata: String) {
        var metadata = metadata
        guard let seal = metadata.withUTF8(Self.init(metadataUTF8:)) else { return nil }
        self = seal
    }

    /// Reads metadata from its UTF-8, split by byte: ":" is ASCII, and no field may hold one.
    private init?(metadataUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let colon = UInt8(ascii: ":")
        guard let kindEnd = bytes.firstIndex(of: colon),
              let stepEnd = bytes[(kindEnd + 1)...].firstIndex(of: colon),
              let expiryEnd = bytes[(stepEnd + 1)...].firstIndex(of: colon)
        else { return nil }
        let hashEnd = bytes[(expiryEnd + 1)...].firstIndex(of: colon) ?? bytes.endIndex
        func field(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[range]) }
        // A fifth field is the key id; a sixth would hold a ":", which no key id does.
        let keyID = hashEnd == bytes.endIndex ? nil : field((hashEnd + 1)..<bytes.endIndex)
        guard keyID.map(AnswerHasher.isKeyID(utf8:)) ?? true else { return nil }
        self.init(
            kind: String(decoding: field(0..<kindEnd), as: UTF8.self),
            stepIndex: DecimalText.value(utf8: field((kindEnd + 1)..<stepEnd)),
            expiresAt: DecimalText.value(utf8: field((stepEnd + 1)..<expiryEnd)),
            answerHash: Hex.decode(utf8: field((expiryEnd + 1)..<hashEnd)),
            keyID: keyID.map { String(decoding: $0, as: UTF8.self) })
    }

    // MARK: privateChallengeParameters

    public var privateParameters: [String: String] {
        // A literal, which the standard library specializes (`init(minimumCapacity:)` it does not), with room for
        // the fifth.
        var parameters = [
            "challenge": kind.rawValue, "step": String(stepIndex), "expiresAt": String(expiresAt),
            "answerHash": Hex.encode(answerHash),
        ]
        if let keyID { parameters["keyId"] = keyID }
        return parameters
    }

    /// Reads private parameters this package wrote; nil for anything else.
    public init?(privateParameters parameters: [String: String]) {
        // One pass over the few parameters instead of five hashed look-ups: the names are short ASCII strings, which
        // compare in a few instructions.
        var kind: String?, step: String?, expiresAt: String?, hash: String?, keyID: String?
        for (name, value) in parameters {
            switch name {
            case "challenge": kind = value
            case "step": step = value
            case "expiresAt": expiresAt = value
            case "answerHash": hash = value
            case "keyId": keyID = value
            default: continue
            }
        }
        guard let kind, let step, let expiresAt, let hash else { return nil }
        guard keyID.map(AnswerHasher.isKeyID) ?? true else { return nil }
        self.init(
            kind: kind, stepIndex: DecimalText.value(of: step), expiresAt: DecimalText.value(of: expiresAt),
            answerHash: Hex.decode(hash), keyID: keyID)
    }

    /// A seal from fields read from text, each nil where its text did not parse, and a key id already checked; nil
    /// unless every field is valid.
    private init?(kind: String, stepIndex: Int64?, expiresAt: Int64?, answerHash: [UInt8]?, keyID: String?) {
        guard let kind = ChallengeKind(rawValue: kind), let stepIndex = stepIndex.flatMap({ Int(exactly: $0) }),
              stepIndex >= 0, let expiresAt, let answerHash, answerHash.count == SHA256.byteCount
        else { return nil }
        self.init(kind: kind, stepIndex: stepIndex, expiresAt: expiresAt, answerHash: answerHash, keyID: keyID)
    }
}

/// Decimal integers in seals, written and read as `String(_:)` and `Int64(_:)` do, without a `String` in between.
private enum DecimalText {
    /// How many bytes `String(value)` has.
    static func length(of value: Int64) -> Int {
        var magnitude = value.magnitude
        var length = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            length += 1
        }
        return length
    }

    /// The value of decimal text as `Int64(_:)` reads it; nil where that is nil.
    static func value(of text: String) -> Int64? {
        var text = text
        return text.withUTF8(value(utf8:))
    }

    /// The value of an optional `+` or `-` followed by one or more ASCII digits, in range; nil for anything else.
    static func value(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        let digits = negative || bytes.first == UInt8(ascii: "+") ? bytes.dropFirst() : bytes[...]
        guard !digits.isEmpty else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            let (shifted, shiftOverflow) = value.multipliedReportingOverflow(by: 10)
            // A negative value is built downwards so that `Int64.min` fits.
            let (next, addOverflow) = negative
                ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !shiftOverflow, !addOverflow else { return nil }
            value = next
        }
        return value
    }
}

/// Fills uninitialised storage (a string's or an array's) from its start.
private struct TextWriter {
    let text: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    init(text: UnsafeMutableBufferPointer<UInt8>) {
        self.text = text
    }

    mutating func append(_ byte: UInt8) {
        text[count] = byte
        count += 1
    }

    mutating func append(_ bytes: String.UTF8View) {
        count = text[count...].initialize(fromContentsOf: bytes)
    }

    /// `value` as `String(value)` writes it.
    mutating func appendDecimal(_ value: Int64) {
        let length = DecimalText.length(of: value)
        var magnitude = value.magnitude
        var index = count + length
        repeat {
            index -= 1
            text[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        if value < 0 { text[count] = UInt8(ascii: "-") }
        count += length
    }

    mutating func appendHex(_ bytes: [UInt8]) {
        Hex.encode(bytes, into: UnsafeMutableBufferPointer(rebasing: text[count...]))
        count += 2 * bytes.count
    }
}

/// Computes answer hashes with one of the deployment's secret keys.
struct AnswerHasher: Sendable {
    private let key: HMACSHA256.Key
    /// Names the key in seals without revealing it: 8 hex digits of a keyed digest.
    let keyID: String

    init(key: [UInt8]) {
        self.key = HMACSHA256.Key(key)
        keyID = Hex.encode(Array(self.key.authenticationCode(for: "cognito-challenge-runtime/key-id").prefix(4)))
    }

    /// A key for one kind of step's own data, under this key's id: a keyed digest of the kind, so that no step's
    /// key opens another's data or the seals.
    func stepKey(for kind: ChallengeKind) -> (id: String, key: [UInt8]) {
        (keyID, key.authenticationCode(for: "cognito-challenge-runtime/step-key/v1\u{0}" + kind.rawValue))
    }

    static func isKeyID(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(isKeyID(utf8:))
    }

    /// The same for UTF-8: 8 hexadecimal digits.
    static func isKeyID(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        utf8.count == 8 && Hex.isHex(utf8: utf8)
    }

    /// The keyed hash of an answer, bound to the user, the step and the expiry so that no hash can be replayed
    /// for another user, step or time.
    func hash(
        normalizedAnswer: String, kind: ChallengeKind, stepIndex: Int, expiresAt: Int64, user: UserIdentity
    ) -> [UInt8] {
        // Fields are joined with NUL, which none of them can contain in a way that shifts a boundary; the message is
        // written straight into an array of its exact length.
        let label = "cognito-challenge-runtime/v1".utf8
        let stepIndex = Int64(stepIndex)
        let length = label.count + kind.rawValue.utf8.count + DecimalText.length(of: stepIndex)
            + DecimalText.length(of: expiresAt) + user.userPoolId.utf8.count + user.userName.utf8.count
            + normalizedAnswer.utf8.count + 6
        // On the stack: the message lives only until it is hashed.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
            var writer = TextWriter(text: buffer)
            writer.append(label)
            writer.append(0)
            writer.append(kind.rawValue.utf8)
            writer.append(0)
            writer.appendDecimal(stepIndex)
            writer.append(0)
            writer.appendDecimal(expiresAt)
            writer.append(0)
            writer.append(user.userPoolId.utf8)
            writer.append(0)
            writer.append(user.userName.utf8)
            writer.append(0)
            writer.append(normalizedAnswer.utf8)
            return key.authenticationCode(for: UnsafeBufferPointer(rebasing: buffer[..<writer.count]))
        }
    }
}

extension AnswerHasher: CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["keyID": keyID], displayStyle: .struct) }
}

/// Whom a challenge belongs to.
public struct UserIdentity: Sendable, Equatable {
    public let userPoolId: String
    public let userName: String

    public init(userPoolId: String, userName: String) {
        self.userPoolId = userPoolId
        self.userName = userName
    }
}
