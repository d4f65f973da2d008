import LosslessJSON

extension LocalFile {
    /// The elements of the non-empty JSON array the file holds (a catalog, a user table). The failure's reason says
    /// what is wrong: unreadable, not JSON, or not a non-empty array.
    public static func nonEmptyJSONArray(at path: String) throws(Failure) -> [JSONValue] {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: contents(of: path))
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(path: path, operation: "read JSON from", reason: "\(error)")
        }
        guard let elements = json.arrayValue, !elements.isEmpty else {
            throw Failure(path: path, operation: "read JSON from", reason: "expected a non-empty JSON array")
        }
        return elements
    }
}
