/// An error the local user pool answers, as Cognito's JSON protocol carries it: HTTP 400 with
/// `{"__type": …, "message": …}` and the `x-amzn-ErrorType` header.
public struct PoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The exception names Cognito uses, as `__type`.
    public enum Kind: String, Sendable, CaseIterable {
        case notAuthorized = "NotAuthorizedException"
        case invalidParameter = "InvalidParameterException"
        case invalidPassword = "InvalidPasswordException"
        case userNotFound = "UserNotFoundException"
        case userNotConfirmed = "UserNotConfirmedException"
        case usernameExists = "UsernameExistsException"
        case resourceNotFound = "ResourceNotFoundException"
        case userLambdaValidation = "UserLambdaValidationException"
        case invalidLambdaResponse = "InvalidLambdaResponseException"
        case unexpectedLambda = "UnexpectedLambdaException"
        case serialization = "SerializationException"
        case unknownOperation = "UnknownOperationException"
        case internalError = "InternalErrorException"
    }

    public let kind: Kind
    /// One sentence, as the client shows it.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "\(kind.rawValue): \(message)" }

    /// What Cognito answers when Define fails the authentication, when a password is wrong, and (with
    /// PreventUserExistenceErrors) when the user does not exist.
    public static let incorrectCredentials = PoolError(.notAuthorized, "Incorrect username or password.")

    /// A request field that is missing or of the wrong type.
    static func missing(_ field: String) -> PoolError {
        PoolError(.invalidParameter, "Missing required parameter \"\(field)\".")
    }

    static func userDoesNotExist() -> PoolError {
        PoolError(.userNotFound, "User does not exist.")
    }
}
