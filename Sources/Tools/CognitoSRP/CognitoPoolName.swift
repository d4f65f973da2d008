/// The pool name Cognito's SRP hashes: the part of a user-pool id after the "_" ("us-east-1_AbCdEf123" gives
/// "AbCdEf123").
public func cognitoPoolName(userPoolId: String) throws(SRPError) -> String {
    let parts = userPoolId.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw .malformedUserPoolId(userPoolId) }
    return String(parts[1])
}
