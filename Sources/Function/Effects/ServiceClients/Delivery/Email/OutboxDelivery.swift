#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import ChallengeFlows
import LosslessJSON
import Platform

/// Delivers codes to a local file, one JSON line per message: the inbox of local development and tests.
///
/// The file holds codes in plain text by design, like a mailbox: it is created readable by its owner only, and an
/// existing file that is a link, belongs to another user or is open to others is refused.
public final class OutboxDelivery: CodeDelivery {
    public var path: String { file.path }
    private let file: PrivateAppendFile
    private let clock: @Sendable () -> Int64

    public init(path: String, clock: @escaping @Sendable () -> Int64) {
        file = PrivateAppendFile(path: path)
        self.clock = clock
    }

    /// Appends the message: its channel, recipient, user, code (a link's token) and link if it is one.
    public func deliver(_ message: CodeMessage) throws {
        let sentAt = JSONNumber(Int(clock()))
        // Written straight into the line's bytes, without a tree of the members first.
        let line = JSONMemberWriter.objectText(followedBy: "\n") { members in
            members.key("channel")
            members.string(message.channel.rawValue)
            members.key("to")
            members.string(message.recipient)
            members.key("userName")
            members.string(message.userName)
            members.key("code")
            members.string(message.code)
            members.key("validForSeconds")
            members.value(.number(JSONNumber(message.validForSeconds)))
            members.key("sentAt")
            members.value(.number(sentAt))
            if let link = message.link {
                members.key("link")
                members.string(link)
            }
        }
        try file.append(line)
    }

    /// One message found in an outbox file.
    public struct SentMessage: Sendable, Equatable {
        /// How it would have been sent (`email` for lines written before channels were recorded).
        public let channel: MessageChannel
        public let recipient: String
        public let userName: String
        /// The code to type, or the token a sign-in link carries.
        public let code: String
        /// The sign-in link, for a `magic-link` message.
        public let link: String?
        public let sentAt: Int64
    }

    /// Every message in the outbox file, oldest first; an absent file is an empty outbox.
    public static func messages(at path: String) throws -> [SentMessage] {
        guard access(path, F_OK) == 0 else { return [] }
        return try LocalFile.contents(of: path).split(separator: UInt8(ascii: "\n")).map { line in
            let object = try JSONValue(parsing: line).objectValue
            guard let recipient = object?["to"]?.stringValue, let userName = object?["userName"]?.stringValue,
                  let code = object?["code"]?.stringValue,
                  case .number(let sentAt)? = object?["sentAt"], let sentAtSeconds = sentAt.intValue
            else { throw LocalFile.Failure(path: path, operation: "read a message from", reason: "a line is not an outbox message") }
            let channel = object?["channel"]?.stringValue.flatMap(MessageChannel.init(rawValue:)) ?? .email
            return SentMessage(
                channel: channel, recipient: recipient, userName: userName, code: code,
                link: object?["link"]?.stringValue, sentAt: Int64(sentAtSeconds))
        }
    }
}
