import ChallengeCrypto
import Foundation
import LosslessJSON
import SoftwareAuthenticator
import Testing
import TestSupport
import WebAuthn

extension ExternalTool {
    /// Yubico's python-fido2 (`pip install fido2`), the independent verifier the cross-check runs.
    static let fido2 = ExternalTool("python-fido2 (pip fido2)") { Python.hasModule("fido2") }
}

/// Registrations and assertions made by the software authenticator, valid and tampered, verified both by
/// ``WebAuthn`` and by python-fido2 (`Support/fido2_verify.py`, a real process): the two must agree case by case,
/// accept every valid one and refuse every tampered one.
@Suite(.requires(.python3, .fido2)) struct Fido2CrossCheckTests {
    static let relyingParty = RelyingParty(id: "localhost", name: "Example", allowedOrigins: ["http://localhost:5173"])
    static let origin = "http://localhost:5173"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Support/fido2_verify.py").path

    /// One case: what it should come to, what ``WebAuthn`` said, and the case as the script reads it.
    struct Case {
        var name: String
        var valid: Bool
        var swiftAccepted: Bool
        var swiftReason: String
        var fido2Case: JSONValue
    }

    // MARK: - Registration cases

    static func creationOptions(challenge: [UInt8], rpID: String = "localhost", algorithm: COSEAlgorithm) -> String {
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)),
            "rp": ["id": .string(rpID), "name": "Example"],
            "user": ["id": "AQIDBA", "name": "ada@example.com", "displayName": "Ada"],
            "pubKeyCredParams": [["type": "public-key", "alg": .number(JSONNumber(algorithm.rawValue))]],
            "authenticatorSelection": ["residentKey": "required", "userVerification": "required"],
            "attestation": "none",
        ]
        return options.text()
    }

    static func registrationCase(
        _ name: String, valid: Bool, response: String, challenge: [UInt8],
        conveyance: AttestationPolicy.Conveyance = .none,
        requireUserVerification: Bool = true, registered: [[UInt8]] = []
    ) throws -> Case {
        let expectation = RegistrationExpectation(
            challenge: challenge, relyingParty: relyingParty, requireUserVerification: requireUserVerification,
            attestation: AttestationPolicy(conveyance: conveyance), registeredCredentialIDs: registered)
        let verdict: (Bool, String)
        do {
            let verified = try WebAuthn.verifyRegistration(response, expecting: expectation)
            verdict = (true, "registered (\(verified.attestationFormat))")
        } catch {
            verdict = (false, error.description)
        }
        let fido2Case: JSONValue = [
            "name": .string(name), "ceremony": "create", "rpId": .string(relyingParty.id),
            "rpName": .string(relyingParty.name),
            "origins": .array(relyingParty.allowedOrigins.map { .string($0) }),
            "challenge": .string(Base64URL.encode(challenge)),
            "requireUserVerification": .bool(requireUserVerification), "attestation": .string(conveyance.rawValue),
            "registeredCredentialIds": .array(registered.map { .string(Base64URL.encode($0)) }),
            "response": try JSONValue(parsing: response),
        ]
        return Case(name: name, valid: valid, swiftAccepted: verdict.0, swiftReason: verdict.1, fido2Case: fido2Case)
    }

    /// The response with its attestation object changed by `change`.
    static func changingAttestationObject(_ response: String, _ change: (CBOR) throws -> CBOR) throws -> String {
        try changingResponse(response, "attestationObject") { bytes in
            try change(try #require(CBOR(decoding: bytes))).encoded()
        }
    }

    /// The response with the base64url member `key` of its `response` object changed by `change`.
    static func changingResponse(_ response: String, _ key: String, _ change: ([UInt8]) throws -> [UInt8]) throws
        -> String
    {
        guard case .object(var root) = try JSONValue(parsing: response), case .object(var inner)? = root["response"]
        else {
            throw CaseError("the response is not an object with a response object")
        }
        let bytes = try #require(inner[key]?.stringValue.flatMap { Base64URL.decode($0) })
        inner[key] = .string(Base64URL.encode(try change(bytes)))
        root["response"] = .object(inner)
        return JSONValue.object(root).text()
    }

    /// The statement's `sig` with its last byte flipped.
    static func flippingStatementSignature(_ object: CBOR) throws -> CBOR {
        guard let statement = object["attStmt"], case .bytes(var signature)? = statement["sig"] else {
            throw CaseError("no attStmt.sig")
        }
        signature[signature.count - 1] ^= 0x01
        let changed = try #require(statement.replacing("sig", with: .bytes(signature)))
        return try #require(object.replacing("attStmt", with: changed))
    }

    static func registrationCases() throws -> [Case] {
        var cases: [Case] = []
        let challenge = Array("a registration challenge, 32 b.".utf8) + [0x7F]
        for algorithm in COSEAlgorithm.allCases {
            var authenticator = try SoftwareAuthenticator()
            let options = creationOptions(challenge: challenge, algorithm: algorithm)
            let none = try authenticator.register(
                optionsJSON: options, origin: origin, choices: .init(attestation: .none))
            cases.append(try registrationCase("\(algorithm) none", valid: true, response: none, challenge: challenge))
            let packed = try authenticator.register(
                optionsJSON: options, origin: origin, choices: .init(attestation: .packedSelf))
            cases.append(
                try registrationCase("\(algorithm) packed self", valid: true, response: packed, challenge: challenge))
            cases.append(
                try registrationCase(
                    "\(algorithm) packed self, signature flipped", valid: false,
                    response: try changingAttestationObject(packed, flippingStatementSignature), challenge: challenge))
            let otherAlgorithm = try #require(COSEAlgorithm.allCases.first { $0 != algorithm })
            cases.append(
                try registrationCase(
                    "\(algorithm) packed self, alg \(otherAlgorithm)", valid: false,
                    response: try changingAttestationObject(packed) { object in
                        let statement = try #require(
                            object["attStmt"]?.replacing("alg", with: .integer(Int64(otherAlgorithm.rawValue))))
                        return try #require(object.replacing("attStmt", with: statement))
                    }, challenge: challenge))
            cases.append(
                try registrationCase(
                    "\(algorithm) none, another challenge expected", valid: false, response: none,
                    challenge: challenge.reversed()))
        }

        var authenticator = try SoftwareAuthenticator()
        let options = creationOptions(challenge: challenge, algorithm: .es256)
        func register(
            _ choices: SoftwareAuthenticator.RegistrationChoices, options: String = options, origin: String = origin
        ) throws -> String {
            try authenticator.register(optionsJSON: options, origin: origin, choices: choices)
        }
        let certified = try register(.init(attestation: .packedCertificate()))
        cases.append(
            try registrationCase(
                "packed x5c, direct", valid: true, response: certified, challenge: challenge, conveyance: .direct))
        cases.append(
            try registrationCase("packed x5c, none asked", valid: true, response: certified, challenge: challenge))
        cases.append(
            try registrationCase(
                "packed x5c, signature flipped", valid: false,
                response: try changingAttestationObject(certified, flippingStatementSignature), challenge: challenge,
                conveyance: .direct))
        for flaw in AttestationCertificateFlaw.allCases {
            cases.append(
                try registrationCase(
                    "packed x5c, \(flaw)", valid: false,
                    response: try register(.init(attestation: .packedCertificate(flaw: flaw))),
                    challenge: challenge, conveyance: .direct))
        }
        cases.append(
            try registrationCase(
                "none, direct asked", valid: false, response: try register(.init(attestation: .none)),
                challenge: challenge,
                conveyance: .direct))
        cases.append(
            try registrationCase(
                "packed self, direct asked", valid: false, response: try register(.init(attestation: .packedSelf)),
                challenge: challenge, conveyance: .direct))
        cases.append(
            try registrationCase(
                "origin not allowed", valid: false, response: try register(.init(), origin: "http://localhost:8080"),
                challenge: challenge))
        cases.append(
            try registrationCase(
                "another RP ID", valid: false,
                response: try register(
                    .init(), options: creationOptions(challenge: challenge, rpID: "example.org", algorithm: .es256)),
                challenge: challenge))
        let unverified = try register(.init(userVerified: false))
        cases.append(try registrationCase("UV off, required", valid: false, response: unverified, challenge: challenge))
        cases.append(
            try registrationCase(
                "UV off, not required", valid: true, response: unverified, challenge: challenge,
                requireUserVerification: false))
        cases.append(
            try registrationCase(
                "UP off", valid: false, response: try register(.init(userPresent: false)), challenge: challenge))
        cases.append(
            try registrationCase(
                "clientDataJSON type webauthn.get", valid: false,
                response: try changingResponse(try register(.init()), "clientDataJSON") { bytes in
                    Array(
                        String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                            of: "webauthn.create", with: "webauthn.get"
                        ).utf8)
                }, challenge: challenge))
        let taken = try register(.init())
        cases.append(
            try registrationCase(
                "credential ID already registered", valid: false, response: taken, challenge: challenge,
                registered: [try #require(authenticator.credentials.last?.id)]))
        return cases
    }

    // MARK: - Assertion cases

    static func requestOptions(challenge: [UInt8], credential: SoftwareCredential) -> String {
        let options: JSONValue = [
            "challenge": .string(Base64URL.encode(challenge)), "rpId": "localhost",
            "allowCredentials": [["type": "public-key", "id": .string(Base64URL.encode(credential.id))]],
            "userVerification": "required",
        ]
        return options.text()
    }

    static func assertionCase(
        _ name: String, valid: Bool, response: String, challenge: [UInt8], credential: SoftwareCredential,
        aaguid: [UInt8],
        storedSignCount: UInt32 = 0, storedUserHandle: [UInt8]? = nil, storedID: [UInt8]? = nil,
        requireUserVerification: Bool = true
    ) throws -> Case {
        let stored = StoredCredential(
            id: storedID ?? credential.id, publicKey: try credential.cosePublicKey(), signCount: storedSignCount,
            transports: ["internal", "hybrid"], aaguid: aaguid, backupEligible: credential.backupEligible,
            backedUp: credential.backedUp, name: "test", createdAt: 0)
        let userHandle = storedUserHandle ?? credential.userHandle
        let expectation = AssertionExpectation(
            challenge: challenge, relyingParty: relyingParty, userHandle: userHandle,
            requireUserVerification: requireUserVerification)
        let verdict: (Bool, String)
        do {
            let verified = try WebAuthn.verifyAssertion(response, expecting: expectation, credentials: [stored])
            verdict = (true, "signed in (counter \(verified.signCount))")
        } catch {
            verdict = (false, error.description)
        }
        let fido2Case: JSONValue = [
            "name": .string(name), "ceremony": "get", "rpId": .string(relyingParty.id),
            "rpName": .string(relyingParty.name),
            "origins": .array(relyingParty.allowedOrigins.map { .string($0) }),
            "challenge": .string(Base64URL.encode(challenge)),
            "requireUserVerification": .bool(requireUserVerification),
            "credential": [
                "id": .string(Base64URL.encode(stored.id)), "publicKey": .string(Base64URL.encode(stored.publicKey)),
                "aaguid": .string(Base64URL.encode(aaguid)), "signCount": .number(JSONNumber(Int(storedSignCount))),
                "userHandle": .string(Base64URL.encode(userHandle)),
            ],
            "response": try JSONValue(parsing: response),
        ]
        return Case(name: name, valid: valid, swiftAccepted: verdict.0, swiftReason: verdict.1, fido2Case: fido2Case)
    }

    /// The assertion with its authenticator data and client data changed, signed again with the credential's key,
    /// as an authenticator that means it would send them.
    static func resigning(
        _ response: String, with credential: SoftwareCredential,
        authenticatorData changeData: ([UInt8]) -> [UInt8] = { $0 },
        clientData changeClientData: (String) -> String = { $0 }
    ) throws -> String {
        let data = changeData(try responseBytes(response, "authenticatorData"))
        let clientData = Array(
            changeClientData(String(decoding: try responseBytes(response, "clientDataJSON"), as: UTF8.self)).utf8)
        let signature = try credential.sign(data + SHA256.hash(clientData))
        var changed = try changingResponse(response, "authenticatorData") { _ in data }
        changed = try changingResponse(changed, "clientDataJSON") { _ in clientData }
        return try changingResponse(changed, "signature") { _ in signature }
    }

    static func responseBytes(_ response: String, _ key: String) throws -> [UInt8] {
        let inner = try #require(try JSONValue(parsing: response).objectValue?["response"]?.objectValue)
        return try #require(inner[key]?.stringValue.flatMap { Base64URL.decode($0) })
    }

    static func assertionCases() throws -> [Case] {
        var cases: [Case] = []
        let challenge = Array("an assertion challenge, 32 bytes".utf8)
        for algorithm in COSEAlgorithm.allCases {
            var authenticator = try SoftwareAuthenticator()
            _ = try authenticator.register(
                optionsJSON: creationOptions(challenge: challenge, algorithm: algorithm), origin: origin)
            let credential = try #require(authenticator.credentials.first)
            let options = requestOptions(challenge: challenge, credential: credential)
            let valid = try authenticator.authenticate(optionsJSON: options, origin: origin)
            func assertion(_ name: String, valid: Bool, _ response: String, challenge: [UInt8] = challenge) throws
                -> Case
            {
                try assertionCase(
                    name, valid: valid, response: response, challenge: challenge, credential: credential,
                    aaguid: authenticator.aaguid)
            }
            cases.append(try assertion("\(algorithm) assertion", valid: true, valid))
            cases.append(
                try assertion(
                    "\(algorithm) signature flipped", valid: false,
                    try changingResponse(valid, "signature") { signature in
                        var flipped = signature
                        flipped[flipped.count / 2] ^= 0x10
                        return flipped
                    }))
            cases.append(
                try assertion(
                    "\(algorithm) another challenge expected", valid: false, valid, challenge: challenge.reversed()))
            cases.append(
                try assertion(
                    "\(algorithm) counter changed after signing", valid: false,
                    try changingResponse(valid, "authenticatorData") { data in
                        var changed = data
                        changed[36] &+= 1
                        return changed
                    }))
        }

        var authenticator = try SoftwareAuthenticator()
        _ = try authenticator.register(
            optionsJSON: creationOptions(challenge: challenge, algorithm: .es256), origin: origin)
        let credential = try #require(authenticator.credentials.first)
        let options = requestOptions(challenge: challenge, credential: credential)
        let aaguid = authenticator.aaguid
        func sign(_ choices: SoftwareAuthenticator.AssertionChoices = .init(), origin: String = origin) throws -> String
        {
            try authenticator.authenticate(optionsJSON: options, origin: origin, choices: choices)
        }
        cases.append(
            try assertionCase(
                "origin not allowed", valid: false, response: try sign(origin: "https://localhost:5173"),
                challenge: challenge,
                credential: credential, aaguid: aaguid))
        cases.append(
            try assertionCase(
                "another RP ID hash, signed", valid: false,
                response: try resigning(try sign(), with: credential) { data in
                    SHA256.hash("example.org") + data.dropFirst(32)
                },
                challenge: challenge, credential: credential, aaguid: aaguid))
        let unverified = try sign(.init(userVerified: false))
        cases.append(
            try assertionCase(
                "UV off, required", valid: false, response: unverified, challenge: challenge, credential: credential,
                aaguid: aaguid))
        cases.append(
            try assertionCase(
                "UV off, not required", valid: true, response: unverified, challenge: challenge, credential: credential,
                aaguid: aaguid, requireUserVerification: false))
        cases.append(
            try assertionCase(
                "UP off", valid: false, response: try sign(.init(userPresent: false)), challenge: challenge,
                credential: credential, aaguid: aaguid))
        let counted = try sign()
        let count = UInt32(try responseBytes(counted, "authenticatorData")[36])
        cases.append(
            try assertionCase(
                "counter not above the stored one", valid: false, response: counted, challenge: challenge,
                credential: credential, aaguid: aaguid, storedSignCount: count))
        cases.append(
            try assertionCase(
                "counter above the stored one", valid: true, response: counted, challenge: challenge,
                credential: credential,
                aaguid: aaguid, storedSignCount: count - 1))
        cases.append(
            try assertionCase(
                "another user's handle", valid: false, response: try sign(), challenge: challenge,
                credential: credential,
                aaguid: aaguid, storedUserHandle: [9, 9, 9, 9]))
        cases.append(
            try assertionCase(
                "unknown credential", valid: false, response: try sign(), challenge: challenge, credential: credential,
                aaguid: aaguid, storedID: Array(repeating: 7, count: 16)))
        cases.append(
            try assertionCase(
                "clientDataJSON type webauthn.create, signed", valid: false,
                response: try resigning(try sign(), with: credential) {
                    $0
                } clientData: {
                    $0.replacingOccurrences(of: "webauthn.get", with: "webauthn.create")
                }, challenge: challenge, credential: credential, aaguid: aaguid))

        var synced = try SoftwareAuthenticator(counterPolicy: .alwaysZero)
        _ = try synced.register(
            optionsJSON: creationOptions(challenge: challenge, algorithm: .edDSA), origin: origin,
            choices: .init(backupEligible: true, backedUp: true))
        let passkey = try #require(synced.credentials.first)
        let zero = try synced.authenticate(
            optionsJSON: requestOptions(challenge: challenge, credential: passkey), origin: origin)
        cases.append(
            try assertionCase(
                "synced passkey, counters both zero", valid: true, response: zero, challenge: challenge,
                credential: passkey,
                aaguid: synced.aaguid))
        return cases
    }

    // MARK: - The check

    /// The script's verdicts, by case name.
    static func fido2Verdicts(_ cases: [Case]) throws -> [String: (accepted: Bool, reason: String)] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fido2-cases-\(UUID()).json").path
        try Data(JSONValue.array(cases.map(\.fido2Case)).serialized()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var verdicts: [String: (accepted: Bool, reason: String)] = [:]
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let object = try #require(try JSONValue(parsing: String(line)).objectValue)
            let name = try #require(object["name"]?.stringValue)
            verdicts[name] = (object["accepted"] == true, object["reason"]?.stringValue ?? "")
        }
        return verdicts
    }

    static func check(_ cases: [Case]) throws {
        #expect(Set(cases.map(\.name)).count == cases.count, "case names must be unique")
        let verdicts = try fido2Verdicts(cases)
        #expect(verdicts.count == cases.count)
        for item in cases {
            let fido2 = try #require(verdicts[item.name], "no verdict from fido2 for \(item.name)")
            let swiftVerdict = "\(item.swiftAccepted ? "accepted" : "refused") (\(item.swiftReason))"
            let fido2Verdict = "\(fido2.accepted ? "accepted" : "refused") (\(fido2.reason))"
            #expect(
                item.swiftAccepted == fido2.accepted, "\(item.name): WebAuthn \(swiftVerdict), fido2 \(fido2Verdict)")
            #expect(item.swiftAccepted == item.valid, "\(item.name): WebAuthn: \(item.swiftReason)")
            #expect(fido2.accepted == item.valid, "\(item.name): fido2: \(fido2.reason)")
        }
    }

    @Test func registrationsAgree() throws {
        try Self.check(try Self.registrationCases())
    }

    @Test func assertionsAgree() throws {
        try Self.check(try Self.assertionCases())
    }
}

/// A test case could not be built as intended.
struct CaseError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
