/// The pool's password policy, checked when a password is set (SignUp, AdminCreateUser, AdminSetUserPassword).
public struct PasswordPolicy: Sendable, Equatable {
    public var minimumLength: Int
    public var requireLowercase: Bool
    public var requireUppercase: Bool
    public var requireNumbers: Bool

    /// Deploy/template.yaml's policy: 12 characters with lower case, upper case and a number.
    public static let template = PasswordPolicy(minimumLength: 12, requireLowercase: true, requireUppercase: true, requireNumbers: true)

    public init(minimumLength: Int, requireLowercase: Bool, requireUppercase: Bool, requireNumbers: Bool) {
        self.minimumLength = minimumLength
        self.requireLowercase = requireLowercase
        self.requireUppercase = requireUppercase
        self.requireNumbers = requireNumbers
    }

    /// Throws `InvalidPasswordException` with Cognito's wording for the first rule `password` breaks.
    public func check(_ password: String) throws(PoolError) {
        func broken(_ rule: String) -> PoolError {
            PoolError(.invalidPassword, "Password did not conform with policy: \(rule)")
        }
        if password.count < minimumLength { throw broken("Password not long enough") }
        if requireLowercase, !password.contains(where: \.isLowercase) { throw broken("Password must have lowercase characters") }
        if requireUppercase, !password.contains(where: \.isUppercase) { throw broken("Password must have uppercase characters") }
        if requireNumbers, !password.contains(where: \.isNumber) { throw broken("Password must have numeric characters") }
    }
}
