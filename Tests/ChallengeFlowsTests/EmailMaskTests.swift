import ChallengeFlows
import Testing

@Suite("EmailMask: the first character of the local part and of the domain, lower case, then the top-level domain")
struct EmailMaskTests {
    @Test(
        "ASCII addresses, edge cases included",
        arguments: [
            ("Jane.Doe@Example.COM", "j***@e***.com"),
            ("a@b", "a***@b***"),
            ("@x.com", "***@x***.com"),
            ("noat", "n***"),
            ("No.At", "n***"),
            ("", "***"),
            ("@", "***@***"),
            ("x@y", "x***@y***"),
            ("x@.com", "x***@***.com"),
            ("x@.", "x***@***."),
            ("x@y.", "x***@y***."),
            ("x@y.com.", "x***@y***."),
            (".x@.y.z", ".***@.***.z"),
            ("a@b@C.D", "a***@c***.d"),
            ("\r\nab@cd.ef", "\r\n***@c***.ef"),
            ("ab@\r\ncd.ef", "a***@\r\n***.ef"),
            ("\rab@\n.x", "\r***@\n***.x"),
            ("\r\n", "\r\n***"),
            ("\n\rx", "\n***"),
        ])
    func ascii(address: String, expected: String) {
        #expect(Array(EmailMask.mask(address).utf8) == Array(expected.utf8))
    }

    @Test(
        "addresses beyond ASCII: lower-cased by Unicode, first characters as grapheme clusters",
        arguments: [
            ("ÄBC@dömain.de", "ä***@d***.de"),
            ("Jane.Doé@Example.COM", "j***@e***.com"),
            ("e\u{301}x@Y.Z", "e\u{301}***@y***.z"),
            ("x@ÉXAMPLE.ÇOM", "x***@é***.çom"),
            ("δ", "δ***"),
        ])
    func unicode(address: String, expected: String) {
        #expect(Array(EmailMask.mask(address).utf8) == Array(expected.utf8))
    }

    @Test("every short text over letters of both cases, '@', '.', CR and LF is masked as the rules say")
    func exhaustiveShortTexts() {
        let alphabet: [Unicode.Scalar] = ["A", "b", "@", ".", "\r", "\n"]
        var texts = [""]
        for _ in 1...5 {
            texts = texts.flatMap { text in alphabet.map { text + String($0) } }
            for text in texts {
                #expect(Array(EmailMask.mask(text).utf8) == Array(Self.masked(text).utf8), "\(Array(text.utf8))")
            }
        }
    }

    /// The rules, spelled out by characters: lower case; split at the last "@", the domain at its last "."; each
    /// masked word is its first character and "***"; the top-level domain (from its dot) stays.
    private static func masked(_ address: String) -> String {
        let characters = Array(address.lowercased())
        func word(_ part: ArraySlice<Character>) -> String { (part.first.map { String($0) } ?? "") + "***" }
        guard let at = characters.lastIndex(of: "@") else { return word(characters[...]) }
        let domain = characters[(at + 1)...]
        guard let dot = domain.lastIndex(of: ".") else { return word(characters[..<at]) + "@" + word(domain) }
        return word(characters[..<at]) + "@" + word(domain[..<dot]) + String(domain[dot...])
    }
}
