import LosslessJSON

/// One libFuzzer input: any bytes may be rejected, but a document that parses must write out as JSON that parses
/// back to the same value, in both layouts, and writing is stable (the compact text of the reparsed value is the
/// same bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    guard let value = try? JSONValue(parsing: input) else { return 0 }
    let compact = value.serialized(.compact)
    for text in [compact, value.serialized(.pretty)] {
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: text)
        } catch {
            fatalError("written JSON does not parse: \(error)\n\(String(decoding: text, as: UTF8.self))")
        }
        guard reparsed == value else {
            fatalError("written JSON parses to another value:\n\(String(decoding: text, as: UTF8.self))")
        }
        guard reparsed.serialized(.compact) == compact else {
            fatalError("writing the reparsed value gives other bytes:\n\(String(decoding: compact, as: UTF8.self))")
        }
    }
    return 0
}
