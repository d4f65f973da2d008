/// The one form of phone number SNS texts to, and the form Cognito stores: E.164, a `+` and 8 to 15 digits, the
/// first not 0.
public enum PhoneNumberFormat {
    /// True for an E.164 number such as `+14155550100`.
    public static func isE164(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "+"), (9...16).contains(bytes.count), bytes[1] != UInt8(ascii: "0") else {
            return false
        }
        return bytes.dropFirst().allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
