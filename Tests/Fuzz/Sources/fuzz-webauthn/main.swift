import ChallengeCrypto
@testable import WebAuthnCeremonies

/// The relying party and expectations every input is checked against: clientDataJSON below passes their checks, so
/// bytes given as an attestation object or authenticator data reach the CBOR, COSE and X.509 readers.
let relyingParty = RelyingParty(id: "example.com", name: "Example", allowedOrigins: ["https://example.com"])
let challenge: [UInt8] = [0, 0, 0]
let registrationClientData = Base64URL.encode(
    Array(#"{"type":"webauthn.create","challenge":"AAAA","origin":"https://example.com"}"#.utf8))
let assertionClientData = Base64URL.encode(
    Array(#"{"type":"webauthn.get","challenge":"AAAA","origin":"https://example.com"}"#.utf8))
/// The stored credential's key: an Ed25519 COSE key {1: 1, 3: -8, -1: 6, -2: 32 bytes}.
let storedKey: [UInt8] = [0xa4, 0x01, 0x01, 0x03, 0x27, 0x20, 0x06, 0x21, 0x58, 0x20] + Array(repeating: 0x66, count: 32)
let credentials = [
    StoredCredential(
        id: [1], publicKey: storedKey, signCount: 0, transports: [], aaguid: Array(repeating: 0, count: 16),
        backupEligible: false, backedUp: false, name: "", createdAt: 0)
]

/// One libFuzzer input, fed to: the CBOR decoder (whole and as a prefix, which must agree), the authenticator data
/// and COSE key readers, both ceremonies as the whole response JSON, and both ceremonies with the bytes as the
/// attestation object or authenticator data inside an otherwise passing response. Errors are answers; nothing may
/// crash, leak or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebAuthn(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let value = try? CBORDecoder.decode(bytes) {
        guard let (prefix, length) = try? CBORDecoder.decodePrefix(bytes, from: 0), prefix == value, length == size
        else { fatalError("decode and decodePrefix disagree") }
        _ = try? COSEKey(value)
    }
    _ = try? AuthenticatorData(bytes)

    let text = String(decoding: bytes, as: UTF8.self)
    let registration = RegistrationExpectation(
        challenge: challenge, relyingParty: relyingParty, requireUserVerification: false,
        attestation: AttestationPolicy(conveyance: size % 2 == 0 ? .none : .direct))
    let assertion = AssertionExpectation(
        challenge: challenge, relyingParty: relyingParty, userHandle: [7], requireUserVerification: false)
    _ = try? WebAuthn.verifyRegistration(text, expecting: registration)
    _ = try? WebAuthn.verifyAssertion(text, expecting: assertion, credentials: credentials)

    let encoded = Base64URL.encode(bytes)
    _ = try? WebAuthn.verifyRegistration(
        #"{"id":"AQ","rawId":"AQ","type":"public-key","response":{"clientDataJSON":"\#(registrationClientData)","attestationObject":"\#(encoded)"}}"#,
        expecting: registration)
    _ = try? WebAuthn.verifyAssertion(
        #"{"id":"AQ","rawId":"AQ","type":"public-key","response":{"clientDataJSON":"\#(assertionClientData)","authenticatorData":"\#(encoded)","signature":"AA"}}"#,
        expecting: assertion, credentials: credentials)
    return 0
}
