import Basics
/// Just enough XML for the Query protocol's small answers: the text of the first element with a given name.
enum XMLText {
    /// The text inside the first `<name>…</name>` (namespace prefixes and attributes allowed on the start tag), with
    /// the five predefined entities and numeric character references decoded; nil when there is none.
    static func firstElement(_ name: String, in body: [UInt8]) -> String? {
        let document = String(decoding: body, as: UTF8.self)
        var rest = document[...]
        while let open = rest.textRange(of: "<") {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.firstIndex(of: ">") else { return nil }
            let tag = afterOpen[..<close]
            rest = afterOpen[afterOpen.index(after: close)...]
            let tagName = tag.prefix { !" \t\r\n/".contains($0) }
            guard !tag.hasSuffix("/"), tagName.split(separator: ":").last.map(String.init) == name else { continue }
            guard let end = rest.textRange(of: "</\(tagName)>") else { return nil }
            return decodeEntities(rest[..<end.lowerBound])
        }
        return nil
    }

    private static let entities = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]

    private static func decodeEntities(_ text: Substring) -> String {
        var output = ""
        var rest = text
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let afterAmpersand = rest[rest.index(after: ampersand)...]
            if let semicolon = afterAmpersand.prefix(10).firstIndex(of: ";"),
                let decoded = decodeEntity(afterAmpersand[..<semicolon])
            {
                output += decoded
                rest = afterAmpersand[afterAmpersand.index(after: semicolon)...]
            } else {
                output += "&"
                rest = afterAmpersand
            }
        }
        return output + rest
    }

    private static func decodeEntity(_ name: Substring) -> String? {
        if let named = entities[String(name)] { return named }
        guard name.first == "#" else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        return value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
}
