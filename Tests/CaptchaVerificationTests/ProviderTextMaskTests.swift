@testable import ServiceClients
import Testing

@Suite("masking what the provider echoes")
struct ProviderTextMaskTests {
    let mask = ProviderTextMask(token: "tok.EN", secret: "s3cret")

    @Test func tokenAndSecretAreReplaced() {
        #expect(mask.apply("tok.EN and s3cret, twice: tok.EN") == "[token] and [secret], twice: [token]")
    }

    @Test func controlCharactersAndQuotesAreNeutralised() {
        #expect(mask.apply("a\nb\u{7F}\"c\"") == "a?b?'c'")
    }

    @Test func longTextIsCut() {
        let long = String(repeating: "x", count: ProviderTextMask.maximumLength + 10)
        #expect(mask.apply(long) == String(repeating: "x", count: ProviderTextMask.maximumLength) + "…")
        #expect(mask.apply(String(repeating: "y", count: ProviderTextMask.maximumLength)).count == ProviderTextMask.maximumLength)
    }
}
