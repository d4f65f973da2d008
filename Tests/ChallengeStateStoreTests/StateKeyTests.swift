import ServiceClients
import Testing

@Suite("State keys")
struct StateKeyTests {
    let secret = Array("0123456789abcdef0123456789abcdef".utf8)

    @Test func keyIsTheHMACOfLabelPoolAndUser() {
        // python3: hmac.new(secret, b"cognito-challenge-state-v1\0eu-west-1_Example\0jane", hashlib.sha256).hexdigest()
        #expect(
            StateKey.derive(secret: secret, userPoolId: "eu-west-1_Example", userName: "jane")
                == "8bd4153771f0c602b4a719930cd781389dc3a76d637e48d6d1413541c59708a3")
    }

    @Test func everyInputChangesTheKey() {
        let key = StateKey.derive(secret: secret, userPoolId: "eu-west-1_Example", userName: "jane")
        let others = [
            StateKey.derive(secret: secret, userPoolId: "eu-west-1_Example", userName: "janet"),
            StateKey.derive(secret: secret, userPoolId: "eu-west-1_Other", userName: "jane"),
            StateKey.derive(secret: Array("another secret".utf8), userPoolId: "eu-west-1_Example", userName: "jane"),
            // Joining with NUL keeps the boundary: moving a character across it is another key.
            StateKey.derive(secret: secret, userPoolId: "eu-west-1_Examplej", userName: "ane"),
        ]
        #expect(Set(others + [key]).count == 5)
        #expect(!key.contains("jane"))
    }
}
