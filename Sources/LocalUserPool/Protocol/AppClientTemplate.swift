import Foundation

/// The app-client settings of a CloudFormation/SAM template's `AWS::Cognito::UserPoolClient`, read from the few
/// YAML lines that carry them (block style, as Deploy/template.yaml writes them): `ExplicitAuthFlows`,
/// `PreventUserExistenceErrors` and `AuthSessionValidity`.
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

    public init(flows: ClientAuthFlows, preventUserExistenceErrors: Bool, sessionValidityMinutes: Int?) {
        self.flows = flows
        self.preventUserExistenceErrors = preventUserExistenceErrors
        self.sessionValidityMinutes = sessionValidityMinutes
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

        var flowNames: [String]?
        if let start = properties.firstIndex(where: { Self.key(of: $0) == "ExplicitAuthFlows" }) {
            let keyIndent = Self.indent(of: properties[start])
            var names: [String] = []
            for line in properties[(start + 1)...] {
                let content = line.drop { $0 == " " }
                guard content.hasPrefix("- "), Self.indent(of: line) >= keyIndent else { break }
                names.append(Self.unquoted(Self.withoutComment(content.dropFirst(2))))
            }
            if let unknown = names.first(where: { !ClientAuthFlows.knownNames.contains($0) }) {
                throw ReadError(reason: "ExplicitAuthFlows lists \"\(unknown)\", which is not a Cognito auth flow")
            }
            flowNames = names
        }
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
