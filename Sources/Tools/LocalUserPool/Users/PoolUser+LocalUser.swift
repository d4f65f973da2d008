import CognitoSRP
import Invoker

extension PoolUser {
    /// A CONFIRMED user with a verified email address (and a verified phone number when the entry has one) and the
    /// entry's other attributes, from a ``LocalUserTable`` entry; its password is kept only as an SRP salt and
    /// verifier for the pool `userPoolId`.
    public init(_ local: LocalUser, userPoolId: String, createdAt: Int64) throws(PoolError) {
        let verifier = try LocalUserPool.verifier(
            poolName: LocalUserPool.poolName(userPoolId), userName: local.userName, password: local.password)
        self.init(
            userName: local.userName, sub: local.sub, attributes: local.userAttributes,
            status: .confirmed, verifier: verifier, createdAt: createdAt)
    }
}
