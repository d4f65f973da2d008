import ChallengeFlows
import ServiceClients
import Testing

enum SESFixtures {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        sessionToken: "FQoGZXIvYXdzEXAMPLETOKEN")
    static let message = CodeMessage(recipient: "jane@example.com", userName: "jane", code: "042917", validForSeconds: 180)
    static let fromAddress = "Example Sign-in <no-reply@example.com>"

    static func configuration(endpoint: String, budget: Duration = .seconds(3)) -> SESConfiguration {
        SESConfiguration(
            region: "us-east-1", credentials: credentials, fromAddress: fromAddress, endpoint: AWSEndpoint(url: endpoint)!,
            timeBudget: budget)
    }

    /// The error a send must end with; records an issue when it succeeds.
    static func failure(of delivery: SESCodeDelivery, sending message: CodeMessage = message) -> SESDeliveryError? {
        do {
            let receipt = try delivery.send(message)
            Issue.record("the delivery succeeded: \(receipt)")
            return nil
        } catch {
            return error
        }
    }
}
