import ChallengeCrypto
@testable import ChallengeFlows
@testable import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

@Suite struct AssertionTests {
    /// Runs the ceremony against its own stored credential (counter 3, not backup eligible) unless told otherwise.
    static func verify(
        _ ceremony: AssertionCeremony, stored: [StoredCredential]? = nil, requireUserVerification: Bool = true
    ) throws -> VerifiedAssertion {
        var expectation = ceremony.expectation
        expectation.requireUserVerification = requireUserVerification
        return try WebAuthn.verifyAssertion(ceremony.json, expecting: expectation, credentials: stored ?? [ceremony.stored()])
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsAGoodAssertion(algorithm: COSEAlgorithm) throws {
        var ceremony = AssertionCeremony(KeyHandle.shared[algorithm]!)
        ceremony.flags = Flag.up | Flag.uv | Flag.be | Flag.bs
        ceremony.extensions = CBOR.map([("credProtect", 1)]).encoded()
        ceremony.flags |= Flag.ed
        let other = AssertionCeremony(KeyHandle.others[algorithm]!)
        var otherStored = try other.stored()
        otherStored.id = [1, 2, 3]
        let verified = try Self.verify(ceremony, stored: [otherStored, ceremony.stored(backupEligible: true)])
        #expect(verified == VerifiedAssertion(credentialID: ceremony.credentialID, signCount: 7, backedUp: true, userVerified: true))
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsWithoutUserHandleAndWithoutUVWhenNotRequired(algorithm: COSEAlgorithm) throws {
        var ceremony = AssertionCeremony(KeyHandle.shared[algorithm]!)
        ceremony.userHandle = nil
        ceremony.flags = Flag.up
        ceremony.clientData.crossOrigin = nil
        let verified = try Self.verify(ceremony, requireUserVerification: false)
        #expect(verified.userVerified == false)
        #expect(verified.backedUp == false)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func acceptsZeroCountersAndRefusesARegression(algorithm: COSEAlgorithm) throws {
        var ceremony = AssertionCeremony(KeyHandle.shared[algorithm]!)
        ceremony.signCount = 0
        #expect(try Self.verify(ceremony, stored: [ceremony.stored(signCount: 0)]).signCount == 0)
        #expect(throws: WebAuthnError.counterRegression(stored: 3, received: 0)) { try Self.verify(ceremony) }
        ceremony.signCount = 3
        #expect(throws: WebAuthnError.counterRegression(stored: 3, received: 3)) { try Self.verify(ceremony) }
        ceremony.signCount = 2
        #expect(throws: WebAuthnError.counterRegression(stored: 3, received: 2)) { try Self.verify(ceremony) }
        ceremony.signCount = 4
        #expect(try Self.verify(ceremony).signCount == 4)
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func refusesEveryTamperedPart(algorithm: COSEAlgorithm) throws {
        let good = AssertionCeremony(KeyHandle.shared[algorithm]!)
        func refused(
            _ error: WebAuthnError, _ change: (inout AssertionCeremony) -> Void, _ comment: Comment? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            var ceremony = good
            change(&ceremony)
            #expect(throws: error, comment, sourceLocation: sourceLocation) { try Self.verify(ceremony, stored: [good.stored()]) }
        }
        for (what, error, change) in good.refusedAlike(otherType: "webauthn.create") {
            refused(error, change, "\(what)")
        }
        refused(.backupFlagsInvalid) { $0.flags = Flag.up | Flag.uv | Flag.be }
        refused(.badSignature) { $0.signedBytes = Array("other bytes".utf8) }
        refused(.badSignature) { $0.key = KeyHandle.others[algorithm]! }
        refused(.unknownCredential) { $0.credentialID = [1, 2, 3] }
        refused(.userHandleMismatch) { $0.userHandle = Array(repeating: 0x5a, count: 32) }
        refused(.malformed("credential.id and credential.rawId differ")) { $0.rawID = [1, 2, 3] }
        // Another user's credential: a valid signature by a credential that is not in this user's list.
        var someoneElse = AssertionCeremony(KeyHandle.others[algorithm]!)
        someoneElse.credentialID = [0xee, 0xee]
        #expect(throws: WebAuthnError.unknownCredential) { try Self.verify(someoneElse, stored: [good.stored()]) }
    }

    @Test func topOriginOfAnAllowedOriginIsAccepted() throws {
        var ceremony = AssertionCeremony(KeyHandle.shared[.es256]!)
        ceremony.clientData.topOrigin = "https://login.example.com"
        ceremony.clientData.origin = "https://login.example.com"
        #expect(try Self.verify(ceremony).signCount == 7)
    }

    @Test func refusesMalformedResponses() {
        let ceremony = AssertionCeremony(KeyHandle.shared[.es256]!)
        let expectation = ceremony.expectation
        func refused(_ json: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: WebAuthnError.malformed(message), sourceLocation: sourceLocation) {
                try WebAuthn.verifyAssertion(json, expecting: expectation, credentials: [ceremony.stored()])
            }
        }
        refused("[]", "credential is not a JSON object")
        refused(#"{"id":"AA","rawId":"AA","type":"public-key"}"#, "credential.response is missing")
        refused(#"{"id":"AA","rawId":"AA","type":"password","response":{}}"#, #"credential.type is not "public-key""#)
        refused(#"{"id":"A=A","rawId":"AA","type":"public-key","response":{}}"#, "credential.id is not base64url")
        refused(#"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":"e30"}}"#,
            "credential.response.authenticatorData is missing")
        refused(#"{"id":"AA","rawId":"AA","type":"public-key","response":{"clientDataJSON":5}}"#,
            "credential.response.clientDataJSON is not a string")
        #expect(throws: WebAuthnError.self) {
            try WebAuthn.verifyAssertion("{", expecting: expectation, credentials: [])
        }
    }
}
