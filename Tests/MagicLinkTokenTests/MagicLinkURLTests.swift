import ChallengeCrypto
import Testing

@Suite struct MagicLinkURLTests {
    static let token = "AQVrMjAyNAAC-_x"

    @Test(arguments: [
        ("https://app.example.com/sign-in?token={token}", "https://app.example.com/sign-in?token=AQVrMjAyNAAC-_x"),
        ("https://app.example.com/sign-in#{token}", "https://app.example.com/sign-in#AQVrMjAyNAAC-_x"),
        ("HTTPS://app.example.com:8443/l/{token}/go", "HTTPS://app.example.com:8443/l/AQVrMjAyNAAC-_x/go"),
        ("http://localhost:3000/sign-in?t={token}", "http://localhost:3000/sign-in?t=AQVrMjAyNAAC-_x"),
        ("http://127.0.0.1/?a={token}&b={token}", "http://127.0.0.1/?a=AQVrMjAyNAAC-_x&b=AQVrMjAyNAAC-_x"),
    ])
    func rendersTheTokenIntoTheTemplate(template: String, expected: String) throws {
        #expect(try MagicLinkURL.render(template: template, token: Self.token) == expected)
        #expect(try MagicLinkURL(template: template).render(token: Self.token) == expected)
    }

    @Test(arguments: [
        ("https://app.example.com/sign-in", "has no {token} placeholder, so the link would not carry the token"),
        ("http://app.example.com/sign-in?token={token}", "uses plain http to app.example.com, which is allowed only for localhost and 127.0.0.1"),
        ("http://localhost.example.com/{token}", "uses plain http to localhost.example.com, which is allowed only for localhost and 127.0.0.1"),
        ("http://127.0.0.1.nip.io/{token}", "uses plain http to 127.0.0.1.nip.io, which is allowed only for localhost and 127.0.0.1"),
        ("http://localhost@evil.example/{token}", "carries a user name or password before its host"),
        ("ftp://app.example.com/{token}", "is not an https:// URL"),
        ("app.example.com/{token}", "is not an https:// URL"),
        ("https://{token}.example.com/", "puts {token} in the host"),
        ("https:///{token}", "has no host"),
        ("https://app.example.com/sign in?t={token}", "contains spaces or control characters"),
        ("http://evil.example\\localhost/{token}", "contains a backslash, which browsers read as a slash"),
    ])
    func refusesUnsafeTemplates(template: String, problem: String) {
        #expect(throws: MagicLinkURLError.invalid(template: template, problem: problem)) {
            try MagicLinkURL.render(template: template, token: Self.token)
        }
    }

    @Test("a token in the path or query reaches the server; one in the fragment does not", arguments: [
        ("https://app.example.com/sign-in#token={token}", false),
        ("https://app.example.com/sign-in?next=%2F#token={token}", false),
        ("https://app.example.com/sign-in?token={token}", true),
        ("https://app.example.com/l/{token}", true),
        ("https://app.example.com/l/{token}#token={token}", true),
    ])
    func tellsWhetherTheServerSeesTheToken(template: String, sent: Bool) throws {
        #expect(try MagicLinkURL(template: template).sendsTokenToServer == sent)
    }

    @Test func readsTheEnvironment() throws {
        let link = try MagicLinkURL(environment: ["MAGIC_LINK_URL": "https://app.example.com/s?t={token}"])
        #expect(link.template == "https://app.example.com/s?t={token}")
        #expect(throws: MagicLinkURLError.notSet) { try MagicLinkURL(environment: [:]) }
        #expect(throws: MagicLinkURLError.notSet) { try MagicLinkURL(environment: ["MAGIC_LINK_URL": ""]) }
        do {
            _ = try MagicLinkURL(environment: ["MAGIC_LINK_URL": "http://example.com/{token}"])
            Issue.record("accepted plain http to a remote host")
        } catch {
            #expect(
                "\(error)"
                    == "MAGIC_LINK_URL \"http://example.com/{token}\" uses plain http to example.com, which is allowed only for localhost and 127.0.0.1.")
        }
    }
}
