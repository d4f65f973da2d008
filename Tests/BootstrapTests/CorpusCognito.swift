import DevelopmentSupport
import Invoker
import TestSupport

extension CorpusEvent {
    /// The stand-in for Cognito's `GetUser` over the whole corpus, started once per test process: what the HTTP API
    /// events' function asks about their tokens.
    static let cognito = try? CognitoGetUserStandIn(corpus: all())
}
