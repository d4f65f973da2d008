/// How a message reaches a user.
public enum MessageChannel: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// To the `email` attribute.
    case email
    /// As a text message to the `phone_number` attribute.
    case sms

    public var description: String { rawValue }
}

/// A one-time secret on its way to a user: a code to type, or a sign-in link that carries it.
public struct CodeMessage: Sendable, Equatable {
    /// How it is sent.
    public var channel: MessageChannel
    /// The email address, or for ``MessageChannel/sms`` the E.164 phone number, it goes to.
    public var recipient: String
    /// The Cognito user name, for templates that greet the user.
    public var userName: String
    /// The secret in plain text (a code, or a link's token): only a delivery ever sees it.
    public var code: String
    /// The sign-in link that carries ``code``, when the message is a link rather than a code to type.
    public var link: String?
    /// How long the code stays valid, in whole seconds.
    public var validForSeconds: Int

    public init(
        channel: MessageChannel = .email, recipient: String, userName: String, code: String, link: String? = nil,
        validForSeconds: Int
    ) {
        self.channel = channel
        self.recipient = recipient
        self.userName = userName
        self.code = code
        self.link = link
        self.validForSeconds = validForSeconds
    }

    /// The recipient masked as a client may see it.
    public var maskedRecipient: String {
        switch channel {
        case .email: EmailMask.mask(recipient)
        case .sms: PhoneMask.mask(recipient)
        }
    }
}

/// Messages get printed and dumped on their way to a delivery; the code must not go with them.
extension CodeMessage: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "\(link == nil ? "code" : "sign-in link") for \(userName) by \(channel) to \(maskedRecipient), valid \(validForSeconds) s (\(link == nil ? "code" : "link") not shown)"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "channel": channel, "recipient": recipient, "userName": userName, "code": "(not shown)",
                "link": link == nil ? "none" : "(not shown)", "validForSeconds": validForSeconds,
            ],
            displayStyle: .struct)
    }
}

/// Sends a code to its recipient: a local outbox file in development, Amazon SES in production.
///
/// Implementations may keep connections open between calls; the runtime calls them from one thread at a time.
public protocol CodeDelivery: AnyObject {
    /// Sends the message, or throws an error whose description names what failed (never the code itself).
    func deliver(_ message: CodeMessage) throws
}
