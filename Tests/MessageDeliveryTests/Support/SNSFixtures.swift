import ServiceClients
import Testing

enum SNSFixtures {
    static let credentials = AWSCredentials(
        accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
        sessionToken: "FQoGZXIvYXdzEXAMPLETOKEN")
    static let phoneNumber = "+15555550100"
    static let code = "042917"

    static func configuration(endpoint: String, budget: Duration = .seconds(3), senderID: String? = nil) -> SNSConfiguration {
        SNSConfiguration(
            region: "us-east-1", credentials: credentials, endpoint: AWSEndpoint(url: endpoint)!, senderID: senderID,
            timeBudget: budget)
    }

    /// The error a send must end with; records an issue when it succeeds.
    static func failure(of delivery: SNSCodeDelivery, to phoneNumber: String = phoneNumber) -> SNSDeliveryError? {
        do {
            let receipt = try delivery.send(code: code, to: phoneNumber, validForSeconds: 300)
            Issue.record("the delivery succeeded: \(receipt)")
            return nil
        } catch {
            return error
        }
    }
}

extension SNSConfiguration {
    func with(text: SMSText) -> SNSConfiguration {
        var copy = self
        copy.text = text
        return copy
    }
}
