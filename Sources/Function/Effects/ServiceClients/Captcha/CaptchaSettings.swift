import Basics

/// The checks of the CAPTCHA settings' values that only ``CaptchaProviderConfiguration`` needs.
extension EnvironmentReader {
    /// A comma-separated list of one or more hostnames, lower-cased; spaces around the commas are ignored.
    func hostnames(_ variable: String) throws(SettingError) -> [String] {
        let text = try required(variable, purpose: "list the hostnames, separated by commas, of the pages that show the widget")
        var hostnames: [String] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            let hostname = entry.trimmingWhitespace().lowercased()
            guard !hostname.isEmpty, hostname.utf8.allSatisfy(Self.isHostnameByte) else {
                throw SettingError(
                    variable: variable, problem: "holds \"\(hostname)\", which is not a hostname such as login.example.com")
            }
            hostnames.append(hostname)
        }
        return hostnames
    }

    /// A number from 0 to 1.
    func fraction(_ variable: String, default fallback: Double) throws(SettingError) -> Double {
        guard let text = value(variable) else { return fallback }
        guard let number = Double(text), (0...1).contains(number) else {
            throw SettingError(variable: variable, problem: "is \"\(text)\"; expected a number from 0.0 to 1.0")
        }
        return number
    }

    /// An `http://` or `https://` URL with a host, without spaces, control characters, user information or fragment.
    func endpoint(_ variable: String) throws(SettingError) -> String? {
        guard let text = value(variable) else { return nil }
        let lowered = text.lowercased()
        let scheme = ["https://", "http://"].first { lowered.hasPrefix($0) }
        let authority = scheme.map { text.dropFirst($0.count).prefix { $0 != "/" && $0 != "?" } } ?? ""
        guard scheme != nil, !authority.isEmpty, !authority.contains("@"), !text.contains("#"),
            !text.contains(where: Self.isUnprintable)
        else {
            throw SettingError(
                variable: variable, problem: "is \"\(text)\"; expected an http(s) URL such as https://host/siteverify")
        }
        return text
    }

    /// Spaces, control characters and anything outside ASCII's printable range.
    static func isUnprintable(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value <= 0x20 || $0.value >= 0x7F }
    }

    private static func isHostnameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
