import Foundation

/// The app-client settings of a CloudFormation/SAM template's `AWS::Cognito::UserPoolClient`, read from the few
/// YAML lines that carry them (as Deploy/template.yaml writes them): `ExplicitAuthFlows`, `WriteAttributes` and
/// `ReadAttributes` (block lists or `[a, b]`), `PreventUserExistenceErrors` and `AuthSessionValidity`.
public struct AppClientTemplate: Sendable, Equatable {
    /// Why a template could not be read.
    public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The client's flows; Cognito's defaults when the template lists none.
    public let flows: ClientAuthFlows
    /// False only when the template says `PreventUserExistenceErrors: LEGACY`.
    public let preventUserExistenceErrors: Bool
    /// Minutes a sign-in session lives, when the template sets them.
    public let sessionValidityMinutes: Int?
    /// The attributes the client may write (`WriteAttributes`); nil for every attribute, Cognito's default.
    public let writeAttributes: Set<String>?
    /// The attributes the client may read (`ReadAttributes`); nil for every attribute, Cognito's default.
    public let readAttributes: Set<String>?

    public init(
        flows: ClientAuthFlows, preventUserExistenceErrors: Bool, sessionValidityMinutes: Int?,
        writeAttributes: Set<String>? = nil, readAttributes: Set<String>? = nil
    ) {
        self.flows = flows
        self.preventUserExistenceErrors = preventUserExistenceErrors
        self.sessionValidityMinutes = sessionValidityMinutes
        self.writeAttributes = writeAttributes
        self.readAttributes = readAttributes
    }

    /// Reads the first `AWS::Cognito::UserPoolClient` resource of the template text.
    public init(yaml text: String) throws(ReadError) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.hasSuffix("\r") ? line.dropLast() : line)
        }
        guard let typeLine = lines.firstIndex(where: { Self.value(of: "Type", in: $0) == "AWS::Cognito::UserPoolClient" }) else {
            throw ReadError(reason: "the template has no resource of type \"AWS::Cognito::UserPoolClient\"")
        }
        // The resource runs from its name (one level above Type) to the next line at that level or above.
        let resourceIndent = Self.indent(of: lines[typeLine]) - 2
        var properties: [String] = []
        for line in lines[(typeLine + 1)...] {
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.hasPrefix("#") { continue }
            if Self.indent(of: line) <= resourceIndent { break }
            properties.append(line)
        }

        let flowNames = Self.list("ExplicitAuthFlows", in: properties)
        if let names = flowNames {
            if let unknown = names.first(where: { !ClientAuthFlows.knownNames.contains($0) }) {
                throw ReadError(reason: "ExplicitAuthFlows lists \"\(unknown)\", which is not a Cognito auth flow")
            }
        }
        writeAttributes = Self.list("WriteAttributes", in: properties).map(Set.init)
        readAttributes = Self.list("ReadAttributes", in: properties).map(Set.init)
        flows = flowNames.map(ClientAuthFlows.init) ?? .cognitoDefault
        let prevent = properties.lazy.compactMap { Self.value(of: "PreventUserExistenceErrors", in: $0) }.first
        preventUserExistenceErrors = prevent != "LEGACY"
        let validity = properties.lazy.compactMap { Self.value(of: "AuthSessionValidity", in: $0) }.first
        if let validity {
            guard let minutes = Int(validity), (3...15).contains(minutes) else {
                throw ReadError(reason: "AuthSessionValidity \"\(validity)\" is not a whole number of minutes from 3 to 15")
            }
            sessionValidityMinutes = minutes
        } else {
            sessionValidityMinutes = nil
        }
    }

    /// The list under `key`: `key: [a, b]` on one line, or `- a` lines below it; nil when the key is absent.
    private static func list(_ key: String, in properties: [String]) -> [String]? {
        guard let start = properties.firstIndex(where: { Self.key(of: $0) == key }) else { return nil }
        if let inline = value(of: key, in: properties[start]) {
            guard inline.hasPrefix("["), inline.hasSuffix("]") else { return [inline] }
            return inline.dropFirst().dropLast().split(separator: ",").map { unquoted($0) }.filter { !$0.isEmpty }
        }
        let keyIndent = indent(of: properties[start])
        var names: [String] = []
        for line in properties[(start + 1)...] {
            let content = line.drop { $0 == " " }
            guard content.hasPrefix("- "), indent(of: line) >= keyIndent else { break }
            names.append(unquoted(withoutComment(content.dropFirst(2))))
        }
        return names
    }

    private static func indent(of line: String) -> Int {
        line.prefix { $0 == " " }.count
    }

    private static func key(of line: String) -> String? {
        let content = line.drop { $0 == " " }
        guard let colon = content.firstIndex(of: ":") else { return nil }
        return String(content[..<colon])
    }

    /// The scalar after `key:` on this line, without a trailing comment or quotes.
    private static func value(of key: String, in line: String) -> String? {
        guard self.key(of: line) == key, let colon = line.firstIndex(of: ":") else { return nil }
        let text = unquoted(withoutComment(line[line.index(after: colon)...]))
        return text.isEmpty ? nil : text
    }

    /// The text before a ` #` comment.
    private static func withoutComment(_ text: Substring) -> Substring {
        guard let comment = text.range(of: " #") else { return text }
        return text[..<comment.lowerBound]
    }

    private static func unquoted(_ text: Substring) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.count >= 2, let first = trimmed.first, first == "\"" || first == "'", trimmed.last == first {
            return String(trimmed.dropFirst().dropLast())
        }
        return trimmed
    }
}
