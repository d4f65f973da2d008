/// Shows where a code went without showing the address: `jane.doe@example.com` → `j***@e***.com`.
enum EmailMask {
    static func mask(_ address: String) -> String {
        guard let at = address.lastIndex(of: "@") else { return maskWord(address) }
        let local = address[..<at]
        let domain = address[address.index(after: at)...]
        guard let dot = domain.lastIndex(of: ".") else { return "\(maskWord(local))@\(maskWord(domain))" }
        return "\(maskWord(local))@\(maskWord(domain[..<dot]))\(domain[dot...])"
    }

    /// A plausible, stable mask for a user that does not exist, so that its challenge looks like a real one.
    /// An e-mail-shaped user name is masked as it is; anything else gets letters derived from a keyed hash.
    static func decoy(for userName: String, hasher: AnswerHasher) -> String {
        if userName.contains("@") { return mask(userName) }
        // Cosmetic letters only (a slight modulo bias here reveals nothing).
        let digest = hasher.digest("decoy-mask", userName)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let topLevelDomains = ["com", "net", "org", "io"]
        let local = letters[Int(digest[0]) % letters.count]
        let domain = letters[Int(digest[1]) % letters.count]
        return "\(local)***@\(domain)***.\(topLevelDomains[Int(digest[2]) % topLevelDomains.count])"
    }

    private static func maskWord(_ word: Substring) -> String {
        guard let first = word.first else { return "***" }
        return "\(first)***"
    }

    private static func maskWord(_ word: String) -> String {
        maskWord(word[...])
    }
}
