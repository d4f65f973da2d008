#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the sign-in asks the person (or the script) signing in.
public enum Question: Sendable, Equatable {
    /// The password, for the PASSWORD_VERIFIER step.
    case password(userName: String)
    /// The code sent by email; `delivered` is the code found in the local outbox, if any.
    case emailCode(destination: String, delivered: String?)
    /// The code sent by text message; `delivered` is the code found in the local outbox, if any.
    case smsCode(destination: String, delivered: String?)
    /// The token of the sign-in link sent by email (the app submits it as the answer); `delivered` is the token
    /// found in the local outbox, if any.
    case signInLink(destination: String, delivered: String?)
    /// The text in a CAPTCHA image; `catalogAnswer` is its answer in the configured catalog, if known.
    case captcha(imageURL: String, catalogAnswer: String?)
    /// A custom challenge this tool does not recognise: its public parameters.
    case custom(publicParameters: [String: String])

    /// The prompt's label.
    var label: String {
        switch self {
        case .password: "password"
        case .emailCode, .smsCode: "code"
        case .signInLink: "link token"
        case .captcha: "CAPTCHA text"
        case .custom: "answer"
        }
    }
}

/// Gives the answers of a sign-in.
public protocol AnswerSource: AnyObject {
    /// The answer to the question, or nil when there is none left (end of input, end of the script).
    func answer(_ question: Question) -> String?
    /// True when the answers come from a person at a terminal (the transcript then does not repeat them).
    var isInteractive: Bool { get }
}

/// Answers from a list, for tests and CI. Two special answers: `@outbox` is the code (email or text message) or the
/// sign-in link's token delivered to the local outbox, and `@captcha` is the CAPTCHA's answer from the catalog.
public final class ScriptedAnswers: AnswerSource {
    public static let deliveredCode = "@outbox"
    public static let catalogAnswer = "@captcha"

    private var remaining: ArraySlice<String>
    public let isInteractive = false

    public init(_ answers: [String]) {
        remaining = answers[...]
    }

    public func answer(_ question: Question) -> String? {
        if case .password = question { return nil }
        guard let answer = remaining.popFirst() else { return nil }
        switch (answer, question) {
        case (Self.deliveredCode, .emailCode(_, let delivered?)), (Self.deliveredCode, .smsCode(_, let delivered?)),
             (Self.deliveredCode, .signInLink(_, let delivered?)):
            return delivered
        case (Self.catalogAnswer, .captcha(_, let known?)): return known
        default: return answer
        }
    }
}

/// Asks on the terminal: a prompt on standard output, a line from standard input (a password without echo).
public final class PromptedAnswers: AnswerSource {
    private let style: TerminalStyle
    public let isInteractive = true

    public init(style: TerminalStyle) {
        self.style = style
    }

    public func answer(_ question: Question) -> String? {
        StandardStream.write("      \(style.paint(question.label, .bold)) \(style.paint("›", .cyan)) ", to: STDOUT_FILENO)
        let fromTerminal = isatty(STDIN_FILENO) == 1
        if case .password = question, fromTerminal {
            let line = withoutEcho { readLine() }
            StandardStream.write("\n", to: STDOUT_FILENO)
            return line
        }
        let line = readLine()
        if !fromTerminal {
            // Piped input is not echoed by a terminal: show what was read, as a person would have seen it.
            let shown = if case .password = question { line.map { String(repeating: "•", count: $0.count) } } else { line }
            StandardStream.write((shown ?? "(end of input)") + "\n", to: STDOUT_FILENO)
        }
        return line
    }

    private func withoutEcho<T>(_ body: () -> T) -> T {
        var original = termios()
        guard tcgetattr(STDIN_FILENO, &original) == 0 else { return body() }
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &original) }
        return body()
    }
}
