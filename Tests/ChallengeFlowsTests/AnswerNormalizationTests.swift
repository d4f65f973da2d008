import ChallengeFlows
import Testing

@Suite("Answers are compared without white space (Unicode's White_Space), and CAPTCHA and method answers in lower case")
struct AnswerNormalizationTests {
    @Test(
        "the default drops every white-space character, ASCII or not",
        arguments: [
            ("123456", "123456"),
            (" 12 34\t\n", "1234"),
            ("\u{0B}1\u{0C}2\r3", "123"),
            ("   ", ""),
            ("", ""),
            // Information separators are not white space in Unicode.
            ("\u{1C}1\u{1F}", "\u{1C}1\u{1F}"),
            ("１２３", "１２３"),
            ("\u{00A0}12", "12"),
            ("1\u{3000}2\u{2009}3\u{85}", "123"),
            ("é 1\t", "é1"),
        ])
    func defaultNormalization(answer: String, expected: String) {
        #expect(Array(EmailCodeStep().normalize(answer).utf8) == Array(expected.utf8))
    }

    @Test("CAPTCHA and method-choice answers are also lower-cased")
    func lowerCased() {
        #expect(CaptchaStep.normalize(" AbC d\t") == "abcd")
        #expect(CaptchaStep.normalize("ÄB\u{00A0}C") == "äbc")
        #expect(CaptchaStep.normalize("abc") == "abc")
        let choice = MethodChoiceStep(methods: ["email-code", "captcha"])
        #expect(choice.normalize(" Email-Code\n") == "email-code")
        #expect(choice.normalize("CAPTCHA\u{2003}") == "captcha")
    }

    @Test("every short text over digits, letters, ASCII white space and separators agrees with the scalar rule")
    func exhaustiveShortTexts() {
        let alphabet: [Unicode.Scalar] = ["1", "Z", " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{1C}"]
        let step = EmailCodeStep()
        var texts = [""]
        for _ in 1...4 {
            texts = texts.flatMap { text in alphabet.map { text + String($0) } }
            for text in texts {
                let expected = String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
                #expect(Array(step.normalize(text).utf8) == Array(expected.utf8), "\(Array(text.utf8))")
                // A non-ASCII space at the end takes the general path, which must drop the same characters.
                #expect(step.normalize(text + "\u{00A0}") == step.normalize(text))
            }
        }
    }
}
