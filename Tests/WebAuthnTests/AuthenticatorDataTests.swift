import ChallengeCrypto
@testable import ChallengeFlows
@testable import CognitoChallengeTesting
import Testing
@testable import WebAuthnCeremonies

@Suite struct AuthenticatorDataTests {
    @Test func readsTheFixedPartAlone() throws {
        let bytes = Fixture.authenticatorData(flags: Flag.up | Flag.uv | Flag.be | Flag.bs, signCount: 0x0102_0304)
        let data = try AuthenticatorData(bytes)
        #expect(data.rpIDHash == SHA256.hash("example.com"))
        #expect(data.flags == [.userPresent, .userVerified, .backupEligible, .backedUp])
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredential == nil)
        #expect(data.extensions == nil)
        #expect(data.bytes == bytes)
    }

    @Test func readsAttestedCredentialDataAndExtensions() throws {
        let key = try KeyHandle.shared[.es256]!.coseBytes
        let extensions = CBOR.map([("credProtect", 2)]).encoded()
        let bytes = Fixture.authenticatorData(
            flags: Flag.up | Flag.at | Flag.ed, signCount: 1, attested: (Fixture.aaguid, [9, 8, 7], key),
            extensions: extensions)
        let data = try AuthenticatorData(bytes)
        let attested = try #require(data.attestedCredential)
        #expect(attested.aaguid == Fixture.aaguid)
        #expect(attested.credentialID == [9, 8, 7])
        #expect(attested.publicKeyBytes == key)
        #expect(try COSEKey(attested.publicKey).algorithm == -7)
        #expect(data.extensions?["credProtect"]?.intValue == 2)
    }

    @Test func refusesWhatTheFlagsDoNotAnnounce() throws {
        let key = try KeyHandle.shared[.edDSA]!.coseBytes
        let fixed = Fixture.authenticatorData(flags: Flag.up, signCount: 1)
        #expect(throws: WebAuthnError.malformed("authenticator data of 36 bytes is shorter than the 37 it always has")) {
            try AuthenticatorData(Array(fixed.dropLast()))
        }
        #expect(throws: WebAuthnError.malformed("1 bytes follow the authenticator data's last part")) {
            try AuthenticatorData(fixed + [0xa0])
        }
        #expect(throws: WebAuthnError.malformed("the ED flag is set but no extensions follow")) {
            try AuthenticatorData(Fixture.authenticatorData(flags: Flag.up | Flag.ed, signCount: 1))
        }
        #expect(throws: WebAuthnError.malformed("the authenticator extensions are not a CBOR map")) {
            try AuthenticatorData(Fixture.authenticatorData(flags: Flag.up | Flag.ed, signCount: 1, extensions: [0x80]))
        }
        #expect(throws: WebAuthnError.malformed("the attested credential data is cut short")) {
            try AuthenticatorData(Fixture.authenticatorData(flags: Flag.up | Flag.at, signCount: 1) + [0, 1, 2])
        }
        let attested = Fixture.authenticatorData(flags: Flag.up | Flag.at, signCount: 1, attested: (Fixture.aaguid, [1, 2], key))
        #expect(throws: WebAuthnError.malformed("credential public key: CBOR ends inside an item (byte \(attested.count - 34))")) {
            try AuthenticatorData(Array(attested.dropLast()))
        }
        #expect(throws: WebAuthnError.malformed("1 bytes follow the authenticator data's last part")) {
            try AuthenticatorData(attested + [0xa0])
        }
        var longID = Fixture.authenticatorData(flags: Flag.up | Flag.at, signCount: 1, attested: (Fixture.aaguid, [], key))
        longID[37 + 16] = 0x04  // length 1024
        #expect(throws: WebAuthnError.malformed("the credential ID of 1024 bytes is over 1023")) { try AuthenticatorData(longID) }
        longID[37 + 16] = 0x00
        longID[37 + 17] = 0xff
        #expect(throws: WebAuthnError.malformed("the credential ID is cut short")) { try AuthenticatorData(longID) }
    }

    @Test func readsClientData() throws {
        let data = try ClientData(ClientDataFields(type: "webauthn.get", crossOrigin: nil, topOrigin: "https://a.example").json)
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == Fixture.challenge)
        #expect(data.origin == Fixture.origin)
        #expect(data.crossOrigin == false)
        #expect(data.topOrigin == "https://a.example")
        #expect(throws: WebAuthnError.malformed("clientDataJSON.origin is missing")) {
            try ClientData(Array(#"{"type":"webauthn.get","challenge":"AA"}"#.utf8))
        }
        #expect(throws: WebAuthnError.malformed("clientDataJSON.challenge is not base64url")) {
            try ClientData(Array(#"{"type":"webauthn.get","challenge":"A+/=","origin":"x"}"#.utf8))
        }
        #expect(throws: WebAuthnError.malformed("clientDataJSON.crossOrigin is not a boolean")) {
            try ClientData(Array(#"{"type":"webauthn.get","challenge":"AA","origin":"x","crossOrigin":"no"}"#.utf8))
        }
    }
}
