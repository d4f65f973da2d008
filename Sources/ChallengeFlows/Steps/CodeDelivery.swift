/// A one-time code on its way to a user.
public struct CodeMessage: Sendable, Equatable {
    /// The email address the code goes to.
    public var recipient: String
    /// The Cognito user name, for templates that greet the user.
    public var userName: String
    /// The code in plain text: only a delivery ever sees it.
    public var code: String
    /// How long the code stays valid, in whole seconds.
    public var validForSeconds: Int

    public init(recipient: String, userName: String, code: String, validForSeconds: Int) {
        self.recipient = recipient
        self.userName = userName
        self.code = code
        self.validForSeconds = validForSeconds
    }
}

/// Messages get printed and dumped on their way to a delivery; the code must not go with them.
extension CodeMessage: CustomStringConvertible, CustomReflectable {
    public var description: String {
        "code for \(userName) to \(EmailMask.mask(recipient)), valid \(validForSeconds) s (code not shown)"
    }

    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "recipient": recipient, "userName": userName, "code": "(not shown)", "validForSeconds": validForSeconds,
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
