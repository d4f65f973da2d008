import ChallengeFlows

/// Sends each message by the delivery of its channel: email through the outbox or SES, text messages through the
/// outbox or SNS.
final class ChannelDeliveries: CodeDelivery {
    private let email: any CodeDelivery
    private let sms: (any CodeDelivery)?

    init(email: any CodeDelivery, sms: (any CodeDelivery)?) {
        self.email = email
        self.sms = sms
    }

    func deliver(_ message: CodeMessage) throws {
        switch message.channel {
        case .email:
            try email.deliver(message)
        case .sms:
            guard let sms else { throw NoSMSDelivery() }
            try sms.deliver(message)
        }
    }
}

/// A step sent a text message although the flow declared no `.sms` channel, so no SMS delivery was configured.
struct NoSMSDelivery: Error, CustomStringConvertible {
    var description: String {
        "a step sent a text message, but no SMS delivery is configured because no step of the flow declares the \"sms\" channel"
    }
}
