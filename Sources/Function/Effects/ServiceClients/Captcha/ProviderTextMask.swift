import Basics
/// Makes text that came from the provider (or from libcurl) safe to log: the token and the secret become `[token]`
/// and `[secret]`, control characters `?`, double quotes `'`, and the text is cut to ``maximumLength`` characters.
struct ProviderTextMask {
    let token: String
    let secret: String
    static let maximumLength = 120

    func apply(_ text: String) -> String {
        var masked = text
        if !secret.isEmpty { masked = masked.replacingText(secret, with: "[secret]") }
        if !token.isEmpty { masked = masked.replacingText(token, with: "[token]") }
        var scalars = String.UnicodeScalarView()
        for scalar in masked.unicodeScalars.prefix(Self.maximumLength) {
            scalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar == "\"" ? "'" : scalar)
        }
        return String(scalars) + (masked.unicodeScalars.count > Self.maximumLength ? "…" : "")
    }
}
