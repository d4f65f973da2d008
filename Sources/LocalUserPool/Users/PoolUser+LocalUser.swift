import CognitoSRP
import Invoker

extension PoolUser {
    /// A CONFIRMED user with a verified email address (and a verified phone number when the entry has one) from a
    /// ``LocalUserTable`` entry; its password is kept only as an SRP salt and verifier for the pool `userPoolId`.
    public init(_ local: LocalUser, userPoolId: String, createdAt: Int64) throws(PoolError) {
        let verifier = try LocalUserPool.verifier(
            poolName: LocalUserPool.poolName(userPoolId), userName: local.userName, password: local.password)
        var attributes = ["email": local.email, "email_verified": "true"]
        if let phoneNumber = local.phoneNumber {
            attributes["phone_number"] = phoneNumber
            attributes["phone_number_verified"] = "true"
        }
        self.init(
            userName: local.userName, sub: local.sub, attributes: attributes,
            status: .confirmed, verifier: verifier, createdAt: createdAt)
    }
}
