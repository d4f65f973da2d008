import Basics
import ChallengeCrypto
import ChallengeFlows
import Platform
import WebAuthnCeremonies

extension TriggerConfiguration {
    /// The variables ``passkeySettings(in:)`` reads.
    static let passkeyVariables = [
        "PASSKEY_RP_ID", "PASSKEY_RP_NAME", "PASSKEY_ALLOWED_ORIGINS", "PASSKEY_ATTESTATION", "PASSKEY_AAGUIDS",
        "PASSKEY_ATTESTATION_ROOTS", "PASSKEY_MAX_CREDENTIALS", "PASSKEY_TIMEOUT_MS",
    ]

    /// Reads the passkey settings: nil when `PASSKEY_RP_ID` is unset and no other `PASSKEY_*` variable is either.
    ///
    /// - `PASSKEY_RP_ID`: the relying party's domain in lower case (`example.com`, `localhost`), never an IP address.
    /// - `PASSKEY_RP_NAME`: the name authenticators show; by default the RP ID.
    /// - `PASSKEY_ALLOWED_ORIGINS` (required): origins separated by commas, each `https://host[:port]` on the RP ID
    ///   or a subdomain of it (`http://` only for `localhost`), or an Android app's `android:apk-key-hash:…`.
    /// - `PASSKEY_ATTESTATION`: `none` (the default) or `direct`.
    /// - `PASSKEY_AAGUIDS`: authenticator models allowed to register, as UUIDs separated by commas; needs `direct`
    ///   and `PASSKEY_ATTESTATION_ROOTS`, since an AAGUID counts only when its certificate chain verifies to a root.
    /// - `PASSKEY_ATTESTATION_ROOTS`: the path of a PEM file of root CA certificates (such as the FIDO Metadata
    ///   Service's) that attestation chains must verify to; needs `direct`. A relative path is taken from the working
    ///   directory, which on Lambda is the package's root (`LAMBDA_TASK_ROOT`). The file is read here, once, at start.
    /// - `PASSKEY_MAX_CREDENTIALS`: passkeys per user, 1 to 100, default 10.
    /// - `PASSKEY_TIMEOUT_MS`: how long a ceremony may take, 10000 to 600000, default 300000.
    static func passkeySettings(in environment: [String: String]) throws(ConfigurationError) -> PasskeySettings? {
        let value = EnvironmentReader(environment).trimmedValue
        guard let rpID = value("PASSKEY_RP_ID") else {
            if let stray = passkeyVariables.first(where: { value($0) != nil }) {
                throw .missing(
                    variable: "PASSKEY_RP_ID",
                    hint: "\(stray) is set, but passkeys are configured only with the relying party's domain, such as example.com (localhost for local runs)")
            }
            return nil
        }
        guard isDomainName(rpID) else {
            throw .invalid(
                variable: "PASSKEY_RP_ID", value: rpID,
                expected: "a domain name in lower case such as example.com or localhost (never an IP address, a scheme, a port or a path)")
        }
        guard let originList = value("PASSKEY_ALLOWED_ORIGINS") else {
            throw .missing(
                variable: "PASSKEY_ALLOWED_ORIGINS",
                hint: "list the web origins your sign-in page is served from, separated by commas, such as https://\(rpID) (http://localhost:5173 for local runs)")
        }
        var origins: [String] = []
        for entry in originList.split(separator: ",", omittingEmptySubsequences: false) {
            let origin = String(entry.trimmingWhitespace())
            if let problem = originProblem(origin, rpID: rpID) {
                throw .invalid(variable: "PASSKEY_ALLOWED_ORIGINS", value: originList, expected: problem)
            }
            if !origins.contains(origin) { origins.append(origin) }
        }
        let conveyance: AttestationPolicy.Conveyance
        switch value("PASSKEY_ATTESTATION")?.lowercased() {
        case nil, "none": conveyance = .none
        case "direct": conveyance = .direct
        case let other?: throw .invalid(variable: "PASSKEY_ATTESTATION", value: other, expected: "\"none\" or \"direct\"")
        }
        var aaguids: [[UInt8]]?
        if let list = value("PASSKEY_AAGUIDS") {
            var parsed: [[UInt8]] = []
            for entry in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let aaguid = uuidBytes(String(entry.trimmingWhitespace())) else {
                    throw .invalid(
                        variable: "PASSKEY_AAGUIDS", value: list,
                        expected: "AAGUIDs separated by commas, each a UUID such as ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4")
                }
                parsed.append(aaguid)
            }
            guard conveyance == .direct else {
                throw .refused(
                    variable: "PASSKEY_AAGUIDS", value: list,
                    reason: "without attestation an authenticator names its own model, so the list would hold back nobody; set PASSKEY_ATTESTATION=direct as well, or leave PASSKEY_AAGUIDS unset")
            }
            aaguids = parsed
        }
        var roots: [[UInt8]] = []
        if let path = value("PASSKEY_ATTESTATION_ROOTS") {
            guard conveyance == .direct else {
                throw .refused(
                    variable: "PASSKEY_ATTESTATION_ROOTS", value: path,
                    reason: "roots verify attestation certificate chains, which only PASSKEY_ATTESTATION=direct asks authenticators for; set it as well, or leave PASSKEY_ATTESTATION_ROOTS unset")
            }
            roots = try attestationRoots(path: path)
        }
        if aaguids != nil, roots.isEmpty {
            throw .missing(
                variable: "PASSKEY_ATTESTATION_ROOTS",
                hint: "PASSKEY_AAGUIDS is set, but an AAGUID is the authenticator's own claim and names a model only when its attestation certificate chain verifies to a trusted root; ship the vendors' root certificates (PEM, e.g. from the FIDO Metadata Service) with the function and name the file here, or leave PASSKEY_AAGUIDS unset")
        }
        let maxCredentials = try bounded("PASSKEY_MAX_CREDENTIALS", value("PASSKEY_MAX_CREDENTIALS"), 1...100, default: 10)
        let timeout = try bounded("PASSKEY_TIMEOUT_MS", value("PASSKEY_TIMEOUT_MS"), 10_000...600_000, default: 300_000)
        return PasskeySettings(
            relyingParty: RelyingParty(id: rpID, name: value("PASSKEY_RP_NAME") ?? rpID, allowedOrigins: origins),
            attestation: AttestationPolicy(conveyance: conveyance, allowedAAGUIDs: aaguids, trustedRoots: roots),
            maxCredentialsPerUser: maxCredentials, timeoutMilliseconds: timeout)
    }

    /// The root certificates (DER) in the PEM file at `path`: at least one, each a CA certificate.
    private static func attestationRoots(path: String) throws(ConfigurationError) -> [[UInt8]] {
        func invalid(_ reason: String) -> ConfigurationError {
            .invalid(
                variable: "PASSKEY_ATTESTATION_ROOTS", value: path,
                expected: "a readable PEM file of one or more root CA certificates (\(reason))")
        }
        let pem: [UInt8]
        do {
            pem = try LocalFile.contents(of: path)
        } catch {
            throw invalid(error.description)
        }
        do {
            return try AttestationRoots.parse(pem: pem)
        } catch {
            throw invalid("\(path): \(error.description)")
        }
    }

    private static func bounded(
        _ variable: String, _ text: String?, _ range: ClosedRange<Int>, default value: Int
    ) throws(ConfigurationError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw .invalid(
                variable: variable, value: text, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A host name of lower-case letters, digits and `-` in dot-separated labels, whose last label is not all
    /// digits (which would make it an IPv4 address).
    static func isDomainName(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...253).contains(bytes.count) else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for label in labels {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                  label.allSatisfy({ isLowerAlphanumeric($0) || $0 == UInt8(ascii: "-") })
            else { return false }
        }
        return !(labels.last ?? []).allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Why `origin` cannot be an allowed origin for `rpID`, as the rest of "expected …"; nil when it can.
    private static func originProblem(_ origin: String, rpID: String) -> String? {
        let android = "android:apk-key-hash:"
        if origin.hasPrefix(android) {
            let hash = origin.dropFirst(android.count)
            return !hash.isEmpty && Base64URL.decode(hash) != nil
                ? nil : "an Android origin to be android:apk-key-hash: and the app's base64url signing-key hash"
        }
        let scheme: String
        if origin.hasPrefix("https://") {
            scheme = "https://"
        } else if origin.hasPrefix("http://") {
            scheme = "http://"
        } else {
            return "origins separated by commas, each with its scheme, such as https://\(rpID); \"\(origin)\" has none"
        }
        let authority = origin.dropFirst(scheme.count)
        var host = authority
        if let colon = authority.lastIndex(of: ":") {
            let port = authority[authority.index(after: colon)...]
            guard let number = Int(port), (1...65_535).contains(number), port.first != "0" else {
                return "each origin to be scheme://host[:port] with no path or trailing slash; \"\(origin)\" is not"
            }
            host = authority[..<colon]
        }
        guard isDomainName(String(host)) else {
            return "each origin to be scheme://host[:port] with a lower-case domain name, no path or trailing slash; \"\(origin)\" is not"
        }
        guard host == rpID || host.hasSuffix("." + rpID) else {
            return "each origin's host to be PASSKEY_RP_ID (\(rpID)) or a subdomain of it; \"\(origin)\" is not"
        }
        let isLocal = host == "localhost" || host.hasSuffix(".localhost")
        guard scheme == "https://" || isLocal else {
            return "https origins (http only for localhost, which browsers treat as secure); \"\(origin)\" is not"
        }
        return nil
    }

    /// A UUID's 16 bytes, from `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in either case.
    private static func uuidBytes(_ text: String) -> [UInt8]? {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.utf8.count) == [8, 4, 4, 4, 12] else { return nil }
        return Hex.decode(groups.joined().lowercased())
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
