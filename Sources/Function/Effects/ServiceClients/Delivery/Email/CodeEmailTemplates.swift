import Basics
import ChallengeFlows

/// The subject and bodies of a code email. Each may use the placeholders `{code}`, `{minutes}` (whole minutes the
/// code stays valid, at least 1), `{username}` and, in a sign-in link's email, `{link}`; any other text, braces
/// included, is kept as written.
///
/// Values placed into the HTML body are HTML-escaped; the templates themselves are trusted markup.
public struct CodeEmailTemplates: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String

    public init(subject: String, text: String, html: String) {
        self.subject = subject
        self.text = text
        self.html = html
    }

    public static let defaults = CodeEmailTemplates(
        subject: "Your sign-in code",
        text: "Your sign-in code is {code}\n\nIt expires in {minutes} minutes. "
            + "If you did not try to sign in, you can ignore this email.\n",
        html: "<!DOCTYPE html><html><body><p>Your sign-in code is <strong>{code}</strong></p>"
            + "<p>It expires in {minutes} minutes. If you did not try to sign in, you can ignore this email.</p>"
            + "</body></html>")

    /// The email of a sign-in link (`magic-link`).
    public static let linkDefaults = CodeEmailTemplates(
        subject: "Your sign-in link",
        text: "Open this link to sign in:\n\n{link}\n\nIt expires in {minutes} minutes and works once. "
            + "If you did not try to sign in, you can ignore this email.\n",
        html: "<!DOCTYPE html><html><body><p><a href=\"{link}\">Sign in</a></p>"
            + "<p>The link expires in {minutes} minutes and works once. If you did not try to sign in, you can ignore "
            + "this email.</p></body></html>")

    /// The email for one message. Line breaks in the subject become spaces.
    public func render(_ message: CodeMessage) -> CodeEmail {
        let values = [
            "code": message.code,
            "minutes": String(max(1, message.validForSeconds / 60)),
            "username": message.userName,
            "link": message.link ?? "",
        ]
        let subjectLine = subject.fillingPlaceholders(values)
            .map { $0 == "\r\n" || $0 == "\n" || $0 == "\r" ? " " : $0 }
        return CodeEmail(
            subject: String(subjectLine),
            text: text.fillingPlaceholders(values),
            html: html.fillingPlaceholders(values.mapValues(Self.htmlEscaped)))
    }

    static func htmlEscaped(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }
}

/// A rendered code email.
public struct CodeEmail: Sendable, Equatable {
    public var subject: String
    public var text: String
    public var html: String
}
