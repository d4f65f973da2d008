/// The secret key shared with the CAPTCHA provider. Printing, dumping or interpolating it shows `[redacted]`, so that
/// a logged configuration never reveals it; only ``SiteverifyClient`` reads ``value``, to send it.
public struct CaptchaSecret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself.
    public let value: String

    /// Wraps the secret key as the provider issued it.
    public init(_ value: String) {
        self.value = value
    }

    public var description: String { "[redacted]" }
    public var debugDescription: String { "[redacted]" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
