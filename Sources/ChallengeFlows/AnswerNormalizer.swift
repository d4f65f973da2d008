/// Makes answers comparable: what a user may type differently without meaning something different.
package enum AnswerNormalizer {
    package static func normalize(_ answer: String, for kind: ChallengeKind) -> String {
        let compact = String(answer.unicodeScalars.filter { !$0.properties.isWhitespace })
        switch kind {
        case .emailCode: return compact
        case .captcha: return compact.lowercased()
        }
    }
}
