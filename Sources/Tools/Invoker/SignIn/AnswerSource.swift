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
    /// A custom challenge of a step this tool does not run itself: its public parameters, and the answer the step
    /// expects when its bootstrap can tell (``BootstrapSteps/expectedAnswer(step:identity:publicParameters:clientMetadata:)``).
    case custom(publicParameters: [String: String], expected: String? = nil)
    /// A passkey challenge; `assertion` is the software authenticator's answer, when it has one.
    case passkey(assertion: String?)

    /// The answer the local services know to be right, if any.
    var knownAnswer: String? {
        switch self {
        case .password: nil
        case .emailCode(_, let delivered), .smsCode(_, let delivered), .signInLink(_, let delivered): delivered
        case .captcha(_, let known): known
        case .custom(_, let expected): expected
        case .passkey(let assertion): assertion
        }
    }

    /// The prompt's label.
    var label: String {
        switch self {
        case .password: "password"
        case .emailCode, .smsCode: "code"
        case .signInLink: "link token"
        case .captcha: "CAPTCHA text"
        case .custom: "answer"
        case .passkey: "passkey assertion"
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

/// Answers from a list, for tests and CI. Three special answers: `@outbox` is the code (email or text message) or
/// the sign-in link's token delivered to the local outbox, `@captcha` is the CAPTCHA's answer from the catalog, and
/// `@expected` is whichever of those the challenge has or, for a step of the bootstrap's own, the answer its
/// `expectedAnswer` gives.
public final class ScriptedAnswers: AnswerSource {
    public static let deliveredCode = "@outbox"
    public static let catalogAnswer = "@captcha"
    public static let expectedAnswer = "@expected"

    private var remaining: ArraySlice<String>
    public let isInteractive = false
    /// Why the last answer could not be given, when an `@expected` had nothing to stand for.
    public private(set) var problem: String?

    public init(_ answers: [String]) {
        remaining = answers[...]
    }

    public func answer(_ question: Question) -> String? {
        if case .password = question { return nil }
        guard let answer = remaining.popFirst() else { return nil }
        switch Self.resolve(answer, for: question) {
        case .success(let resolved): return resolved
        case .failure(let unknown):
            problem = unknown.description
            return nil
        }
    }

    /// `answer` with a special answer (`@outbox`, `@captcha`, `@expected`) replaced by what it stands for; any other
    /// text as it is. `@outbox` and `@captcha` stand for themselves when nothing was delivered or the catalog does not
    /// know the image; `@expected` then fails.
    static func resolve(_ answer: String, for question: Question) -> Result<String, UnknownAnswer> {
        switch (answer, question) {
        case (deliveredCode, .emailCode(_, let delivered?)), (deliveredCode, .smsCode(_, let delivered?)),
             (deliveredCode, .signInLink(_, let delivered?)):
            return .success(delivered)
        case (catalogAnswer, .captcha(_, let known?)): return .success(known)
        case (expectedAnswer, _):
            guard let known = question.knownAnswer else { return .failure(UnknownAnswer(label: question.label)) }
            return .success(known)
        default: return .success(answer)
        }
    }

    /// `@expected` stood for nothing.
    struct UnknownAnswer: Error, CustomStringConvertible {
        let label: String
        var description: String {
            "@expected: nothing knows the answer to this \(label) (the step's expectedAnswer gives none, and nothing was delivered to the local outbox)"
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
        guard let line, line.hasPrefix("@") else { return line }
        // The special answers of --answers work at the prompt too.
        switch ScriptedAnswers.resolve(line, for: question) {
        case .success(let resolved):
            if resolved != line { StandardStream.write("      \(style.paint("= \(resolved)", .dim))\n", to: STDOUT_FILENO) }
            return resolved
        case .failure(let unknown):
            StandardStream.write("      \(unknown)\n", to: STDOUT_FILENO)
            return answer(question)
        }
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
