import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the answers to custom challenges come from: a line of standard input, or the output of a shell command.
struct AnswerSource {
    /// Run with `/bin/sh -c`; its standard output, trimmed, is the answer.
    let command: String?

    /// The answer to one custom challenge.
    ///
    /// The command sees the challenge in its environment: `CHALLENGE_NAME`, `CHALLENGE_ROUND` (1 for the first
    /// challenge of the sign-in), and `CHALLENGE_PARAMETERS`, the public challenge parameters as a JSON object.
    func answer(challengeName: String, round: Int, parameters: [String: String]) throws -> String {
        let text: String
        if let command {
            text = try run(command, challengeName: challengeName, round: round, parameters: parameters)
        } else {
            prompt("     answer › ")
            guard let line = readLine(strippingNewline: true) else {
                throw ClientFailure("standard input ended before the answer to challenge \(round)")
            }
            text = line
        }
        let answer = Self.tokenIfSignInLink(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard !answer.isEmpty else { throw ClientFailure("the answer to challenge \(round) is empty") }
        return answer
    }

    /// A magic link pasted whole (`https://app.example.com/sign-in#token=…` or `?token=…`) is answered with its token,
    /// as the app's page does; anything else is the answer as it is.
    static func tokenIfSignInLink(_ text: String) -> String {
        guard text.hasPrefix("https://") || text.hasPrefix("http://"), let link = URLComponents(string: text) else {
            return text
        }
        for part in [link.fragment, link.query].compactMap({ $0 }) {
            for pair in part.split(separator: "&") where pair.hasPrefix("token=") {
                let value = String(pair.dropFirst("token=".count))
                return value.removingPercentEncoding ?? value
            }
        }
        return text
    }

    private func run(_ command: String, challengeName: String, round: Int, parameters: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let parametersJSON = try JSONSerialization.data(withJSONObject: parameters, options: [.sortedKeys])
        process.environment = ProcessInfo.processInfo.environment.merging([
            "CHALLENGE_NAME": challengeName,
            "CHALLENGE_ROUND": String(round),
            "CHALLENGE_PARAMETERS": String(decoding: parametersJSON, as: UTF8.self),
        ]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw ClientFailure("--answer-command could not start: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw ClientFailure("--answer-command failed (status \(process.terminationStatus)) for challenge \(round)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Writes `text` to standard error without a newline (a prompt, or progress in `--json` mode).
func prompt(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// The password for SRP: from a terminal without echo, else a line of standard input.
func readPassword(user: String) throws -> String {
    if isatty(STDIN_FILENO) == 1, let entered = getpass("password for \(user): ") {
        return String(cString: entered)
    }
    prompt("password for \(user): ")
    guard let line = readLine(strippingNewline: true) else {
        throw ClientFailure("standard input ended before the password")
    }
    return line
}
