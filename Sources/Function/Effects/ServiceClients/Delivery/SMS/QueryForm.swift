import Basics

/// The `application/x-www-form-urlencoded` body of a Query-protocol request, encoded as the AWS SDKs encode it:
/// every byte outside `A-Z a-z 0-9 - . _ ~` as `%XX`, except spaces, which become `+`.
///
/// The signature covers these exact bytes. Servers that re-encode the parsed form before checking a signature
/// (moto does) arrive at the same bytes only with `+` for spaces.
enum QueryForm {
    static func encode(_ fields: [(name: String, value: String)]) -> [UInt8] {
        Array(fields.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&").utf8)
    }

    /// Percent-encoding turns a space into `%20`, and no other input into that text (a `%` becomes `%25`).
    private static func encode(_ text: String) -> String {
        URIEncoding.encode(text).replacingText("%20", with: "+")
    }
}
