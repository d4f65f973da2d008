import ChallengeCrypto
import Foundation
import LocalUserPool
import LosslessJSON
import Testing

@Suite struct TokenSigningKeyTests {
    @Test func jwkDescribesTheRSAPublicKey() throws {
        let key = TestKeys.first
        let jwk = try #require(key.jwk.objectValue)
        #expect(jwk.keys == ["alg", "e", "kid", "kty", "n", "use"])
        #expect(jwk["kty"] == "RSA")
        #expect(jwk["alg"] == "RS256")
        #expect(jwk["use"] == "sig")
        #expect(jwk["kid"] == .string(key.keyID))
        #expect(jwk["e"] == "AQAB")  // 65537
        let modulus = try #require(jwk["n"]?.stringValue.flatMap { Base64URL.decode($0) })
        #expect(modulus.count == 256)
        #expect(modulus[0] & 0x80 != 0)  // 2048 bits exactly, no leading zero byte
    }

    @Test func keyIDIsSixteenBytesOfBase64URLAndDiffersBetweenKeys() {
        #expect(Base64URL.decode(TestKeys.first.keyID)?.count == 16)
        #expect(TestKeys.first.keyID != TestKeys.second.keyID)
    }

    @Test func signaturesAreDeterministicAndCheckOnlyUnderTheirOwnKey() throws {
        let message = Array("header.claims".utf8)
        let signature = try TestKeys.first.sign(message)
        #expect(signature.count == 256)
        #expect(try TestKeys.first.sign(message) == signature)  // PKCS #1 v1.5 has no randomness
        #expect(TestKeys.first.isValidSignature(signature, of: message))
        #expect(!TestKeys.first.isValidSignature(signature, of: Array("header.claimz".utf8)))
        #expect(!TestKeys.second.isValidSignature(signature, of: message))
        #expect(!TestKeys.first.isValidSignature(Array(signature.dropLast()), of: message))
    }

    @Test func pkcs8PEMFileReadsBackAsTheSameKey() throws {
        let pem = try TestKeys.first.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cognito-tokens-\(UUID()).pem").path
        try pem.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let loaded = try TokenSigningKey(pemFile: path)
        #expect(loaded.keyID == TestKeys.first.keyID)
        #expect(loaded.jwk == TestKeys.first.jwk)
        let message = Array("signed by the loaded key".utf8)
        #expect(TestKeys.first.isValidSignature(try loaded.sign(message), of: message))
    }

    @Test func refusesKeysItCannotUse() throws {
        #expect(throws: SigningKeyError.tooShort(bits: 1024)) { try TokenSigningKey.generate(bits: 1024) }
        #expect(throws: SigningKeyError.notAPrivateKey(source: "the PEM text")) {
            try TokenSigningKey(pem: "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
        }
        // An Ed25519 key (`openssl genpkey -algorithm ed25519`).
        let ed25519 = """
            -----BEGIN PRIVATE KEY-----
            MC4CAQAwBQYDK2VwBCIEIF5P/o+0fkx735/XNMMv6I+RswWjQTu4B1P6Onasksbt
            -----END PRIVATE KEY-----

            """
        #expect(throws: SigningKeyError.notRSA(source: "the PEM text", type: "ED25519")) {
            try TokenSigningKey(pem: ed25519)
        }
        #expect(throws: SigningKeyError.unreadableFile(path: "/nonexistent/key.pem", reason: "No such file or directory")) {
            try TokenSigningKey(pemFile: "/nonexistent/key.pem")
        }
    }

    @Test func errorMessagesAreSentencesThatQuoteTheValue() {
        #expect(
            SigningKeyError.unreadableFile(path: "/k.pem", reason: "No such file or directory").description
                == "The key file \"/k.pem\" could not be opened: No such file or directory.")
        #expect(
            SigningKeyError.notRSA(source: "/k.pem", type: "EC").description == "The key in \"/k.pem\" is \"EC\", not \"RSA\".")
        #expect(
            SigningKeyError.tooShort(bits: 1024).description
                == "An RSA key of 1024 bits is shorter than the 2048 bits RS256 requires.")
    }
}
