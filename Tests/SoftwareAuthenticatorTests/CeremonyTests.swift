import ChallengeCrypto
import CognitoChallengeTesting
import LosslessJSON
import Testing

@Suite struct RegistrationTests {
    @Test(arguments: COSEAlgorithm.allCases)
    func registersACredentialOfEachKeyType(algorithm: COSEAlgorithm) throws {
        var authenticator = try SoftwareAuthenticator()
        let challenge: [UInt8] = Array(0..<32)
        let json = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: challenge, algorithms: [algorithm.rawValue]),
            origin: Ceremony.origin)
        let credential = try #require(authenticator.credentials.first)
        #expect(authenticator.credentials.count == 1)
        #expect((16...32).contains(credential.id.count))
        #expect(credential.algorithm == algorithm)
        #expect(credential.rpID == Ceremony.rpID && credential.userHandle == [1, 2, 3, 4])

        let root = try Ceremony.object(json)
        #expect(root["id"]?.stringValue == Base64URL.encode(credential.id))
        #expect(root["rawId"]?.stringValue == Base64URL.encode(credential.id))
        #expect(root["type"]?.stringValue == "public-key")
        #expect(root["authenticatorAttachment"]?.stringValue == "platform")
        #expect(root["clientExtensionResults"] == .object(JSONObject()))
        let response = try #require(root["response"]?.objectValue)
        #expect(response["transports"] == ["internal", "hybrid"])
        #expect(response["publicKeyAlgorithm"] == .number(JSONNumber(algorithm.rawValue)))
        #expect(try Ceremony.responseBytes(json, "publicKey") == credential.subjectPublicKeyInfo())

        let clientData = try JSONValue(parsing: Ceremony.responseBytes(json, "clientDataJSON"))
        #expect(
            clientData == [
                "type": "webauthn.create", "challenge": .string(Base64URL.encode(challenge)),
                "origin": .string(Ceremony.origin), "crossOrigin": false,
            ])

        let attestation = try Ceremony.attestationObject(json)
        #expect(attestation["fmt"] == "none")
        #expect(attestation["attStmt"] == .map([]))
        let authenticatorData = try Ceremony.responseBytes(json, "authenticatorData")
        #expect(attestation["authData"] == .bytes(authenticatorData))
        // rpIdHash ‖ flags UP|UV|AT ‖ counter 0 ‖ AAGUID ‖ length ‖ credential ID ‖ COSE key.
        let expected =
            SHA256.hash(Ceremony.rpID) + [0x45, 0, 0, 0, 0] + SoftwareAuthenticator.defaultAAGUID
            + [0, UInt8(credential.id.count)] + credential.id + (try credential.cosePublicKey())
        #expect(authenticatorData == expected)
    }

    @Test func theCOSEKeyCarriesTheLabelsOfItsType() throws {
        var authenticator = try SoftwareAuthenticator()
        for algorithm in COSEAlgorithm.allCases {
            _ = try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [algorithm.rawValue]),
                origin: Ceremony.origin)
        }
        let keys = try authenticator.credentials.map { try #require(CBOR(decoding: $0.cosePublicKey())) }
        // EC2 P-256 with 32-byte coordinates.
        #expect(keys[0][1] == 2 && keys[0][3] == -7 && keys[0][-1] == 1)
        guard case .bytes(let x)? = keys[0][-2], case .bytes(let y)? = keys[0][-3] else {
            Issue.record("no EC2 coordinates")
            return
        }
        #expect(x.count == 32 && y.count == 32)
        // OKP Ed25519 with a 32-byte key.
        #expect(keys[1][1] == 1 && keys[1][3] == -8 && keys[1][-1] == 6)
        guard case .bytes(let raw)? = keys[1][-2] else {
            Issue.record("no OKP key")
            return
        }
        #expect(raw.count == 32)
        // RSA with a 2048-bit modulus and exponent 65537.
        #expect(keys[2][1] == 3 && keys[2][3] == -257 && keys[2][-2] == .bytes([0x01, 0x00, 0x01]))
        guard case .bytes(let modulus)? = keys[2][-1] else {
            Issue.record("no RSA modulus")
            return
        }
        #expect(modulus.count == 256 && modulus[0] & 0x80 != 0)
    }

    @Test func takesTheFirstSupportedAlgorithmOrTheForcedOne() throws {
        var authenticator = try SoftwareAuthenticator()
        _ = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [-36, -257, -7]), origin: Ceremony.origin)
        #expect(authenticator.credentials.last?.algorithm == .rs256)
        _ = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [-7]), origin: Ceremony.origin,
            choices: .init(algorithm: .edDSA))
        #expect(authenticator.credentials.last?.algorithm == .edDSA)
        #expect(throws: SoftwareAuthenticatorError.noSupportedAlgorithm(offered: [-36, -35])) {
            try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [-36, -35]), origin: Ceremony.origin)
        }
        #expect(authenticator.credentials.count == 2)
    }

    @Test func refusesWhenAnExcludedCredentialIsHeld() throws {
        var authenticator = try SoftwareAuthenticator()
        _ = try authenticator.register(optionsJSON: Ceremony.creationOptions(challenge: [1]), origin: Ceremony.origin)
        let held = try #require(authenticator.credentials.first?.id)
        #expect(throws: SoftwareAuthenticatorError.credentialExcluded(id: Base64URL.encode(held))) {
            try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [2], exclude: [[9, 9, 9], held]),
                origin: Ceremony.origin)
        }
        #expect(authenticator.credentials.count == 1)
        // IDs it does not hold do not stand in the way.
        _ = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [3], exclude: [[9, 9, 9]]), origin: Ceremony.origin)
        #expect(authenticator.credentials.count == 2)
    }

    @Test func packedSelfAttestationIsSignedWithTheCredentialKey() throws {
        for algorithm in COSEAlgorithm.allCases {
            var authenticator = try SoftwareAuthenticator()
            let json = try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [7, 7], algorithms: [algorithm.rawValue]),
                origin: Ceremony.origin, choices: .init(attestation: .packedSelf))
            let attestation = try Ceremony.attestationObject(json)
            #expect(attestation["fmt"] == "packed")
            let statement = try #require(attestation["attStmt"])
            #expect(statement["alg"] == .integer(Int64(algorithm.rawValue)))
            #expect(statement["x5c"] == nil)
            guard case .bytes(let signature)? = statement["sig"] else {
                Issue.record("no sig")
                continue
            }
            let signed =
                try Ceremony.responseBytes(json, "authenticatorData")
                + SHA256.hash(try Ceremony.responseBytes(json, "clientDataJSON"))
            let publicKey = try Ceremony.responseBytes(json, "publicKey")
            #expect(OpenSSLCheck.verifies(signature, of: signed, publicKey: publicKey))
            #expect(!OpenSSLCheck.verifies(signature, of: signed + [0], publicKey: publicKey))
        }
    }

    @Test func directAttestationIsPackedWithACertificateThatSigns() throws {
        var authenticator = try SoftwareAuthenticator()
        let json = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [5], attestation: "direct"), origin: Ceremony.origin)
        let attestation = try Ceremony.attestationObject(json)
        #expect(attestation["fmt"] == "packed")
        let statement = try #require(attestation["attStmt"])
        #expect(statement["alg"] == -7)
        guard case .bytes(let signature)? = statement["sig"], case .array(let chain)? = statement["x5c"],
            case .bytes(let leaf)? = chain.first
        else {
            Issue.record("no sig or x5c")
            return
        }
        let signed =
            try Ceremony.responseBytes(json, "authenticatorData")
            + SHA256.hash(try Ceremony.responseBytes(json, "clientDataJSON"))
        #expect(OpenSSLCheck.verifies(signature, of: signed, certificate: leaf))
        #expect(!OpenSSLCheck.verifies(signature, of: signed, publicKey: try Ceremony.responseBytes(json, "publicKey")))
    }

    @Test func flagsFollowTheChoices() throws {
        var authenticator = try SoftwareAuthenticator()
        let json = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [1]), origin: Ceremony.origin,
            choices: .init(userPresent: false, userVerified: false, backupEligible: true, backedUp: true))
        // BE|BS|AT without UP and UV.
        #expect(try Ceremony.responseBytes(json, "authenticatorData")[32] == 0x58)
    }

    @Test func malformedOptionsSayWhatIsWrong() throws {
        var authenticator = try SoftwareAuthenticator()
        #expect(throws: SoftwareAuthenticatorError.malformedOptions("$.user is not an object")) {
            try authenticator.register(optionsJSON: #"{"challenge":"AQ","rp":{"name":"x"}}"#, origin: Ceremony.origin)
        }
        #expect(throws: SoftwareAuthenticatorError.malformedOptions("$.challenge is not base64url")) {
            try authenticator.register(optionsJSON: #"{"challenge":"A+/=","rp":{}}"#, origin: Ceremony.origin)
        }
    }
}

@Suite struct AuthenticationTests {
    /// An authenticator with one credential of each type for `localhost`, and one for another RP.
    static func authenticator(policy: SoftwareAuthenticator.CounterPolicy = .increment) throws -> SoftwareAuthenticator
    {
        var authenticator = try SoftwareAuthenticator(counterPolicy: policy)
        for algorithm in COSEAlgorithm.allCases {
            _ = try authenticator.register(
                optionsJSON: Ceremony.creationOptions(challenge: [1], algorithms: [algorithm.rawValue]),
                origin: Ceremony.origin)
        }
        let other = #"{"challenge":"AQ","rp":{"id":"example.org","name":"Other"},"user":{"id":"CQ","name":"x"}}"#
        _ = try authenticator.register(optionsJSON: other, origin: "https://example.org")
        return authenticator
    }

    @Test(arguments: COSEAlgorithm.allCases)
    func signsAnAssertionThatOpenSSLVerifies(algorithm: COSEAlgorithm) throws {
        var authenticator = try Self.authenticator()
        let credential = try #require(authenticator.credentials.first { $0.algorithm == algorithm })
        let challenge: [UInt8] = Array(100..<132)
        let json = try authenticator.authenticate(
            optionsJSON: Ceremony.requestOptions(challenge: challenge, allow: [credential.id]), origin: Ceremony.origin)
        let root = try Ceremony.object(json)
        #expect(root["id"]?.stringValue == Base64URL.encode(credential.id))
        #expect(root["rawId"]?.stringValue == Base64URL.encode(credential.id))
        #expect(root["type"]?.stringValue == "public-key")
        #expect(root["authenticatorAttachment"]?.stringValue == "platform")
        #expect(try Ceremony.responseBytes(json, "userHandle") == [1, 2, 3, 4])

        let clientDataJSON = try Ceremony.responseBytes(json, "clientDataJSON")
        #expect(
            try JSONValue(parsing: clientDataJSON) == [
                "type": "webauthn.get", "challenge": .string(Base64URL.encode(challenge)),
                "origin": .string(Ceremony.origin), "crossOrigin": false,
            ])
        let authenticatorData = try Ceremony.responseBytes(json, "authenticatorData")
        // rpIdHash ‖ UP|UV ‖ counter 1, no attested credential data.
        #expect(authenticatorData == SHA256.hash(Ceremony.rpID) + [0x05, 0, 0, 0, 1])
        let signature = try Ceremony.responseBytes(json, "signature")
        let publicKey = try credential.subjectPublicKeyInfo()
        #expect(
            OpenSSLCheck.verifies(signature, of: authenticatorData + SHA256.hash(clientDataJSON), publicKey: publicKey))
        #expect(!OpenSSLCheck.verifies(signature, of: authenticatorData + SHA256.hash([0]), publicKey: publicKey))
        #expect(authenticator.credentials.first { $0.id == credential.id }?.signCount == 1)
    }

    @Test func anEmptyAllowListTakesTheNewestCredentialForTheRPID() throws {
        var authenticator = try Self.authenticator()
        let json = try authenticator.authenticate(
            optionsJSON: Ceremony.requestOptions(challenge: [1]), origin: Ceremony.origin)
        #expect(try Ceremony.object(json)["id"]?.stringValue == Base64URL.encode(authenticator.credentials[2].id))
        let otherJSON = try authenticator.authenticate(
            optionsJSON: Ceremony.requestOptions(challenge: [1], rpID: "example.org"), origin: "https://example.org")
        #expect(try Ceremony.object(otherJSON)["id"]?.stringValue == Base64URL.encode(authenticator.credentials[3].id))
    }

    @Test func refusesWhenNoAllowedCredentialIsForTheRPID() throws {
        var authenticator = try Self.authenticator()
        let foreign = authenticator.credentials[3].id
        #expect(throws: SoftwareAuthenticatorError.noCredential(rpID: "localhost")) {
            try authenticator.authenticate(
                optionsJSON: Ceremony.requestOptions(challenge: [1], allow: [foreign, [1, 2, 3]]),
                origin: Ceremony.origin)
        }
        #expect(throws: SoftwareAuthenticatorError.noCredential(rpID: "example.com")) {
            try authenticator.authenticate(
                optionsJSON: Ceremony.requestOptions(challenge: [1], rpID: "example.com"), origin: "https://example.com"
            )
        }
    }

    @Test func theCounterFollowsThePolicy() throws {
        var counting = try Self.authenticator()
        var synced = try Self.authenticator(policy: .alwaysZero)
        var counts: [[UInt8]] = []
        for _ in 0..<3 {
            let counted = try counting.authenticate(
                optionsJSON: Ceremony.requestOptions(challenge: [1]), origin: Ceremony.origin)
            let zero = try synced.authenticate(
                optionsJSON: Ceremony.requestOptions(challenge: [1]), origin: Ceremony.origin)
            counts.append(Array(try Ceremony.responseBytes(counted, "authenticatorData")[33..<37]))
            counts.append(Array(try Ceremony.responseBytes(zero, "authenticatorData")[33..<37]))
        }
        #expect(counts == [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 2], [0, 0, 0, 0], [0, 0, 0, 3], [0, 0, 0, 0]])
    }

    @Test func flagsFollowTheChoicesAndTheCredential() throws {
        var authenticator = try SoftwareAuthenticator()
        _ = try authenticator.register(
            optionsJSON: Ceremony.creationOptions(challenge: [1]), origin: Ceremony.origin,
            choices: .init(backupEligible: true, backedUp: true))
        let json = try authenticator.authenticate(
            optionsJSON: Ceremony.requestOptions(challenge: [1]), origin: Ceremony.origin,
            choices: .init(userPresent: true, userVerified: false))
        // UP|BE|BS, no UV, no AT.
        #expect(try Ceremony.responseBytes(json, "authenticatorData")[32] == 0x19)
    }
}
