import ChallengeFlows

/// Describes what a response event decided, read from the response alone: the summary for functions whose own
/// account is not visible (a bootstrap process).
public enum ResponseSummary {
    public static func describe(_ event: AuthChallengeEvent) -> String {
        switch event {
        case .define(let define):
            let response = define.response
            if response.issueTokens == true { return "issue tokens" }
            if response.failAuthentication == true { return "fail authentication" }
            return "next challenge \(response.challengeName?.rawValue ?? "(none)")"
        case .create(let create):
            let parameters = create.response.publicChallengeParameters ?? [:]
            var parts = [parameters["challenge"] ?? "challenge"]
            if let destination = parameters["destination"] { parts.append("for \(destination)") }
            if let url = parameters["captchaUrl"] { parts.append(url) }
            if let attemptsLeft = parameters["attemptsLeft"] { parts.append("\(attemptsLeft) attempts left") }
            return parts.joined(separator: ", ")
        case .verify(let verify):
            switch verify.response.answerCorrect {
            case true?: return "answer correct"
            case false?: return "answer wrong"
            case nil: return "answerCorrect not set"
            }
        }
    }
}
