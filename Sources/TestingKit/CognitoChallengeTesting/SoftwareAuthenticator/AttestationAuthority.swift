import ChallengeCrypto
import COpenSSL
import Platform

/// A requirement of WebAuthn §8.2.1 (packed attestation certificates) that a made certificate breaks on purpose, so
/// that a relying party's refusal can be tested.
public enum AttestationCertificateFlaw: Sendable, Equatable, CaseIterable {
    /// The subject's OU is "Authenticator" instead of "Authenticator Attestation".
    case wrongOrganizationalUnit
    /// Basic constraints say CA:TRUE.
    case certificateAuthority
    /// The AAGUID extension (1.3.6.1.4.1.45724.1.1.4) holds a different AAGUID from the authenticator data's.
    case wrongAAGUID
    /// The AAGUID extension is marked critical.
    case criticalAAGUIDExtension
}

/// How the `x5c` of a packed attestation reaches (or fails to reach) the authenticator's attestation root.
public enum AttestationChain: Sendable, Equatable, CaseIterable {
    /// `x5c` is the leaf alone, issued by the root: what a relying party that trusts the root accepts.
    case issuedByRoot
    /// `x5c` is the leaf and an intermediate CA; the root issues the intermediate, which issues the leaf.
    case throughIntermediate
    /// `x5c` is a leaf that signs itself (a software key posing as a model): it meets §8.2.1 but reaches no root.
    case selfSigned
}

/// The authenticator model's attestation: a self-signed root CA (P-256) and the attestation key (P-256) whose leaf
/// certificates the root issues, one per attested registration.
struct AttestationAuthority: Sendable, Equatable {
    /// The root's private key, DER PKCS #8.
    var rootKey: [UInt8]
    /// The root's certificate, DER.
    var rootCertificate: [UInt8]
    /// The attestation (leaf) private key, DER PKCS #8.
    var attestationKey: [UInt8]

    /// The OID of the FIDO extension that carries the AAGUID in an attestation certificate.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"
    static let basicConstraintsOID = "2.5.29.19"
    static let subjectKeyIdentifierOID = "2.5.29.14"
    static let authorityKeyIdentifierOID = "2.5.29.35"
    static let organization = "Software Authenticator"

    /// A new root and attestation key.
    static func generate() throws(SoftwareAuthenticatorError) -> AttestationAuthority {
        let root = try KeyHandle.generate(.es256)
        let rootName = [("C", "US"), ("O", organization), ("CN", "Software Authenticator Attestation Root")]
        // CA:TRUE, critical: SEQUENCE { BOOLEAN TRUE }.
        let certificate = try Self.certificate(
            subject: rootName, issuer: rootName, publicKey: root, signer: root,
            extensions: [
                (basicConstraintsOID, true, [0x30, 0x03, 0x01, 0x01, 0xFF]),
                try subjectKeyIdentifier(root),
            ])
        return AttestationAuthority(
            rootKey: try root.pkcs8DER(), rootCertificate: certificate,
            attestationKey: try KeyHandle.generate(.es256).pkcs8DER())
    }

    /// The `x5c` for the attestation key, leaf first, shaped as `chain` says; the leaf has `flaw` when given.
    func certificateChain(
        aaguid: [UInt8], flaw: AttestationCertificateFlaw?, chain: AttestationChain
    ) throws(SoftwareAuthenticatorError) -> [[UInt8]] {
        let root = try KeyHandle.load(pkcs8DER: rootKey, algorithm: .es256)
        let rootName = [("C", "US"), ("O", Self.organization), ("CN", "Software Authenticator Attestation Root")]
        switch chain {
        case .issuedByRoot:
            return [try leafCertificate(aaguid: aaguid, flaw: flaw, issuer: rootName, signer: root)]
        case .selfSigned:
            let leaf = try KeyHandle.load(pkcs8DER: attestationKey, algorithm: .es256)
            return [try leafCertificate(aaguid: aaguid, flaw: flaw, issuer: nil, signer: leaf)]
        case .throughIntermediate:
            // A fresh intermediate key each time: the chain's shape, not its key, is what tests vary.
            let intermediate = try KeyHandle.generate(.es256)
            let intermediateName = [
                ("C", "US"), ("O", Self.organization), ("CN", "Software Authenticator Attestation Intermediate"),
            ]
            let intermediateCertificate = try Self.certificate(
                subject: intermediateName, issuer: rootName, publicKey: intermediate, signer: root,
                extensions: [
                    (Self.basicConstraintsOID, true, [0x30, 0x03, 0x01, 0x01, 0xFF]),
                    try Self.subjectKeyIdentifier(intermediate), try Self.authorityKeyIdentifier(root),
                ])
            let leaf = try leafCertificate(aaguid: aaguid, flaw: flaw, issuer: intermediateName, signer: intermediate)
            return [leaf, intermediateCertificate]
        }
    }

    /// A leaf certificate for the attestation key that meets §8.2.1 (version 3; subject C, O, OU "Authenticator
    /// Attestation", CN; CA:FALSE; the AAGUID extension, not critical) except for `flaw`, issued under `issuer` (nil:
    /// its own subject) and signed by `signer`.
    private func leafCertificate(
        aaguid: [UInt8], flaw: AttestationCertificateFlaw?, issuer: [(String, String)]?, signer: KeyHandle
    ) throws(SoftwareAuthenticatorError) -> [UInt8] {
        let leaf = try KeyHandle.load(pkcs8DER: attestationKey, algorithm: .es256)
        let unit = flaw == .wrongOrganizationalUnit ? "Authenticator" : "Authenticator Attestation"
        let subject = [("C", "US"), ("O", Self.organization), ("OU", unit), ("CN", "Software Authenticator")]
        // CA:FALSE is the empty SEQUENCE (cA defaults to FALSE); CA:TRUE is SEQUENCE { BOOLEAN TRUE }.
        let constraints: [UInt8] = flaw == .certificateAuthority ? [0x30, 0x03, 0x01, 0x01, 0xFF] : [0x30, 0x00]
        let certifiedAAGUID = flaw == .wrongAAGUID ? aaguid.map { $0 ^ 0xFF } : aaguid
        // The extension's value is an OCTET STRING holding the AAGUID; OpenSSL wraps it in extnValue's OCTET STRING.
        let aaguidValue = [0x04, UInt8(certifiedAAGUID.count)] + certifiedAAGUID
        return try Self.certificate(
            subject: subject, issuer: issuer ?? subject, publicKey: leaf, signer: signer,
            extensions: [
                (Self.basicConstraintsOID, false, constraints),
                (Self.aaguidExtensionOID, flaw == .criticalAAGUIDExtension, aaguidValue),
                try Self.authorityKeyIdentifier(signer),
            ])
    }

    /// A key identifier for `key`: the first 20 bytes of SHA-256 of its SubjectPublicKeyInfo. Key identifiers let
    /// a verifier tell apart issuers with the same name (every SoftwareAuthenticator's root has the same one).
    private static func keyIdentifier(_ key: KeyHandle) throws(SoftwareAuthenticatorError) -> [UInt8] {
        Array(SHA256.hash(try key.subjectPublicKeyInfoDER()).prefix(20))
    }

    /// subjectKeyIdentifier: `KeyIdentifier ::= OCTET STRING`.
    private static func subjectKeyIdentifier(_ key: KeyHandle) throws(SoftwareAuthenticatorError)
        -> (oid: String, critical: Bool, value: [UInt8])
    {
        (subjectKeyIdentifierOID, false, [0x04, 0x14] + (try keyIdentifier(key)))
    }

    /// authorityKeyIdentifier: `SEQUENCE { [0] keyIdentifier }`, naming the issuer's key.
    private static func authorityKeyIdentifier(_ issuer: KeyHandle) throws(SoftwareAuthenticatorError)
        -> (oid: String, critical: Bool, value: [UInt8])
    {
        (authorityKeyIdentifierOID, false, [0x30, 0x16, 0x80, 0x14] + (try keyIdentifier(issuer)))
    }

    /// An X.509 v3 certificate, valid from a minute ago for ten years, signed with ECDSA SHA-256 by `signer`.
    /// Each extension is an OID, its criticality and the DER of its value.
    private static func certificate(
        subject: [(String, String)], issuer: [(String, String)], publicKey: KeyHandle, signer: KeyHandle,
        extensions: [(oid: String, critical: Bool, value: [UInt8])]
    ) throws(SoftwareAuthenticatorError) -> [UInt8] {
        guard let certificate = X509_new() else { throw .openSSL(operation: "allocate a certificate") }
        defer { X509_free(certificate) }
        guard X509_set_version(certificate, 2) == 1 else { throw .openSSL(operation: "set the certificate version") }
        let serial: [UInt8]
        do {
            serial = try SystemRandom().bytes(count: 8)
        } catch {
            throw .openSSL(operation: "draw a certificate serial number")
        }
        // A positive serial: the top bit clear.
        let serialNumber = serial.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & 0x7FFF_FFFF_FFFF_FFFF
        guard ASN1_INTEGER_set_uint64(X509_get_serialNumber(certificate), serialNumber) == 1,
            X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil,
            X509_gmtime_adj(X509_getm_notAfter(certificate), 10 * 365 * 24 * 3600) != nil,
            X509_set_pubkey(certificate, publicKey.key.pointer) == 1
        else { throw .openSSL(operation: "fill in the certificate's serial, validity and key") }
        try setName(subject, on: certificate, with: X509_set_subject_name)
        try setName(issuer, on: certificate, with: X509_set_issuer_name)
        for (oid, critical, value) in extensions {
            try addExtension(oid: oid, critical: critical, value: value, to: certificate)
        }
        guard X509_sign(certificate, signer.key.pointer, EVP_sha256()) > 0 else {
            throw .openSSL(operation: "sign the certificate")
        }
        return try DER.write("the certificate") { i2d_X509(certificate, $0) }
    }

    private static func setName(
        _ entries: [(String, String)], on certificate: OpaquePointer,
        with setter: (OpaquePointer?, OpaquePointer?) -> Int32
    ) throws(SoftwareAuthenticatorError) {
        guard let name = X509_NAME_new() else { throw .openSSL(operation: "allocate a certificate name") }
        defer { X509_NAME_free(name) }
        for (field, value) in entries {
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, value, -1, -1, 0) == 1 else {
                throw .openSSL(operation: "add \(field)=\(value) to a certificate name")
            }
        }
        guard setter(certificate, name) == 1 else { throw .openSSL(operation: "set a certificate name") }
    }

    private static func addExtension(
        oid: String, critical: Bool, value: [UInt8], to certificate: OpaquePointer
    ) throws(SoftwareAuthenticatorError) {
        guard let object = OBJ_txt2obj(oid, 1) else { throw .openSSL(operation: "read the OID \(oid)") }
        defer { ASN1_OBJECT_free(object) }
        guard let octets = ASN1_OCTET_STRING_new() else { throw .openSSL(operation: "allocate an OCTET STRING") }
        defer { ASN1_OCTET_STRING_free(octets) }
        guard ASN1_OCTET_STRING_set(octets, value, Int32(value.count)) == 1,
            let ext = X509_EXTENSION_create_by_OBJ(nil, object, critical ? 1 : 0, octets)
        else { throw .openSSL(operation: "make the extension \(oid)") }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(certificate, ext, -1) == 1 else { throw .openSSL(operation: "add the extension \(oid)") }
    }
}
