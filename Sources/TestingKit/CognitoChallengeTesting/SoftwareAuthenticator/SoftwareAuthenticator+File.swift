import ChallengeCrypto
import LosslessJSON

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SoftwareAuthenticator {
    /// The file format's version, written as `version`.
    static let fileVersion = 1

    /// The whole authenticator as JSON: AAGUID, counter policy, attestation keys and root certificate, and every
    /// credential with its private key (binary members base64url).
    public func fileJSON() -> JSONValue {
        let credentialValues: [JSONValue] = credentials.map { credential in
            [
                "id": .string(Base64URL.encode(credential.id)),
                "algorithm": .number(JSONNumber(credential.algorithm.rawValue)),
                "privateKey": .string(Base64URL.encode(credential.privateKey)),
                "rpId": .string(credential.rpID),
                "userHandle": .string(Base64URL.encode(credential.userHandle)),
                "userName": .string(credential.userName),
                "signCount": .number(JSONNumber(Int(credential.signCount))),
                "backupEligible": .bool(credential.backupEligible),
                "backedUp": .bool(credential.backedUp),
            ]
        }
        return [
            "version": .number(JSONNumber(Self.fileVersion)),
            "aaguid": .string(Base64URL.encode(aaguid)),
            "counterPolicy": .string(counterPolicy.rawValue),
            "attestation": [
                "rootKey": .string(Base64URL.encode(attestation.rootKey)),
                "rootCertificate": .string(Base64URL.encode(attestation.rootCertificate)),
                "attestationKey": .string(Base64URL.encode(attestation.attestationKey)),
            ],
            "credentials": .array(credentialValues),
        ]
    }

    /// The authenticator ``fileJSON()`` wrote; `source` names it in errors.
    public init(fileJSON value: JSONValue, source: String) throws(SoftwareAuthenticatorError) {
        func malformed(_ reason: String) -> SoftwareAuthenticatorError { .malformedFile(path: source, reason: reason) }
        guard let object = value.objectValue else { throw malformed("not a JSON object") }
        let root = OptionsReader(object: object, path: "$")
        do throws(SoftwareAuthenticatorError) {
            guard try root.integer("version") == Self.fileVersion else {
                throw malformed("version is not \(Self.fileVersion)")
            }
            let policyName = try root.optionalString("counterPolicy") ?? ""
            guard let policy = CounterPolicy(rawValue: policyName) else {
                throw malformed("counterPolicy \"\(policyName)\" is neither \"increment\" nor \"zero\"")
            }
            let attestationReader = try root.object("attestation")
            let authority = AttestationAuthority(
                rootKey: try attestationReader.bytes("rootKey"),
                rootCertificate: try attestationReader.bytes("rootCertificate"),
                attestationKey: try attestationReader.bytes("attestationKey"))
            var credentials: [SoftwareCredential] = []
            for entry in try root.optionalArray("credentials") {
                let algorithmValue = try entry.integer("algorithm")
                guard let algorithm = COSEAlgorithm(rawValue: algorithmValue) else {
                    throw malformed("\(entry.path).algorithm \(algorithmValue) is not -7, -8 or -257")
                }
                let signCount = try entry.integer("signCount")
                guard let count = UInt32(exactly: signCount) else {
                    throw malformed("\(entry.path).signCount \(signCount) is out of range")
                }
                guard case .bool(let backupEligible)? = entry.object["backupEligible"],
                    case .bool(let backedUp)? = entry.object["backedUp"]
                else { throw malformed("\(entry.path) lacks the booleans backupEligible and backedUp") }
                guard let rpID = try entry.optionalString("rpId") else {
                    throw malformed("\(entry.path).rpId is missing")
                }
                let privateKey = try entry.bytes("privateKey")
                // Read the key now, so that a damaged file fails here rather than at the first sign-in.
                _ = try KeyHandle.load(pkcs8DER: privateKey, algorithm: algorithm)
                credentials.append(
                    SoftwareCredential(
                        id: try entry.bytes("id"), algorithm: algorithm, privateKey: privateKey,
                        rpID: rpID, userHandle: try entry.bytes("userHandle"),
                        userName: try entry.optionalString("userName") ?? "", signCount: count,
                        backupEligible: backupEligible, backedUp: backedUp))
            }
            self.init(
                aaguid: try root.bytes("aaguid"), counterPolicy: policy, credentials: credentials,
                attestation: authority)
        } catch {
            // The reader's complaints name the member; here they are about the file.
            if case .malformedOptions(let reason) = error { throw malformed(reason) }
            throw error
        }
    }

    /// Writes ``fileJSON()`` to `path`, replacing the file whole (a temporary file beside it, renamed over it). The
    /// file is readable and writable by its owner only (mode 0600): it holds private keys.
    public func save(to path: String) throws(SoftwareAuthenticatorError) {
        let bytes = fileJSON().serialized(.pretty) + [0x0A]
        let temporary = "\(path).\(getpid()).tmp"
        // A file left there by an earlier process of the same ID that stopped midway.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw Self.fileError(temporary, "create") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else {
                let error = Self.fileError(temporary, "write")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        // The umask never widens 0600, but may narrow it: make the mode exactly owner read and write.
        guard fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0 else {
            let error = Self.fileError(temporary, "finish")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = Self.fileError(path, "replace")
            unlink(temporary)
            throw error
        }
    }

    /// The authenticator a file ``save(to:)`` wrote holds.
    public init(contentsOf path: String) throws(SoftwareAuthenticatorError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.fileError(path, "open") }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &chunk, chunk.count)
            guard count >= 0 else { throw Self.fileError(path, "read") }
            if count == 0 { break }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .malformedFile(path: path, reason: error.description)
        }
        try self.init(fileJSON: value, source: path)
    }

    private static func fileError(_ path: String, _ action: String) -> SoftwareAuthenticatorError {
        .fileAccess(path: path, reason: "could not \(action) it: \(String(cString: strerror(errno)))")
    }
}
