import DevelopmentSupport
import Foundation

/// The repository's own corpus (Events/) as the tests run it: in process (CognitoTriggersTests) and through the
/// built `bootstrap` (BootstrapTests), with the values the files were written for.
extension CorpusEvent {
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let eventsDirectory = repositoryRoot.appendingPathComponent("Events")
    public static let captchaCatalog = repositoryRoot.appendingPathComponent("Deploy/captcha-catalog.json").path

    /// The values the corpus was written with (see Events/README.md); the time is its `clock.txt`.
    public static let secret = "local-development-secret-do-not-deploy-0001"
    public static let now: Int64 = {
        guard let seconds = try? clock(of: eventsDirectory.path) else {
            preconditionFailure("Events/clock.txt is missing or does not hold a number")
        }
        return seconds
    }()

    /// Every event file under Events/.
    public static func all() throws -> [CorpusEvent] {
        try load(directory: eventsDirectory)
    }

    /// The configuration a deployment of this event's flow would have, with the expectation's settings; an HTTP API
    /// event's function asks the Cognito `GetUser` stand-in at `cognito` about tokens (the test's
    /// `CognitoGetUserStandIn(corpus:)`, from Invoker).
    public func environment(outbox: String, cognito: String? = nil) -> [String: String] {
        var environment = [
            "CODE_HASH_SECRET": Self.secret, "CAPTCHA_CATALOG": Self.captchaCatalog, "ALLOW_CAPTCHA_CATALOG": "true",
            "CODE_DELIVERY": "outbox",
            "OUTBOX_PATH": outbox,
        ]
        if isHTTPAPIEvent, let cognito { environment["COGNITO_IDP_ENDPOINT"] = cognito }
        return environment.merging(settings) { $1 }
    }
}
