import COpenSSL

/// What an attestation statement proved.
enum AttestationResult: Equatable {
    /// Format `none`, or a format whose statement is not checked.
    case unverified
    /// `packed` self attestation: signed by the credential key itself.
    case packedSelf
    /// `packed` with a certificate chain: signed by the leaf certificate's key, which meets §8.2.1.
    case packedCertificate
}

/// The `packed` attestation statement format (WebAuthn §8.2).
enum PackedAttestation {
    /// The OID of the FIDO extension that carries the AAGUID in an attestation certificate.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"
    /// The most certificates an `x5c` may hold (bounds work on untrusted input).
    static let maximumChainLength = 8

    /// Verifies `statement` over `authenticatorData ‖ clientDataHash`.
    static func verify(
        _ statement: CBORValue, authenticatorData: AuthenticatorData, credential: AuthenticatorData.AttestedCredential,
        credentialKey: COSEKey, clientDataHash: [UInt8]
    ) throws(WebAuthnError) -> AttestationResult {
        guard statement.mapValue != nil else { throw .attestation("the packed statement is not a CBOR map") }
        guard let algorithm = statement["alg"]?.intValue else { throw .attestation("the packed statement has no alg") }
        guard let signature = statement["sig"]?.bytesValue else { throw .attestation("the packed statement has no sig") }
        let signed = authenticatorData.bytes + clientDataHash
        guard let chain = statement["x5c"] else {
            guard algorithm == credentialKey.algorithm else {
                throw .attestation("self attestation alg \(algorithm) is not the credential key's \(credentialKey.algorithm)")
            }
            guard credentialKey.verify(signature, of: signed) else {
                throw .attestation("the self attestation signature does not verify")
            }
            return .packedSelf
        }
        guard case .array(let certificates) = chain, let leafValue = certificates.first,
            certificates.count <= maximumChainLength
        else { throw .attestation("x5c is not an array of 1 to \(maximumChainLength) certificates") }
        guard let leafDER = leafValue.bytesValue, certificates.allSatisfy({ $0.bytesValue != nil }) else {
            throw .attestation("x5c holds something other than a certificate's bytes")
        }
        guard WebAuthn.supportedAlgorithms.contains(algorithm) else { throw .unsupportedAlgorithm(algorithm) }
        let leaf = try Certificate(der: leafDER)
        try leaf.checkAttestationRequirements(aaguid: credential.aaguid)
        let key = try leaf.publicKey()
        guard key.verify(signature, of: signed, algorithm: algorithm) else {
            throw .attestation("the packed signature does not verify with the attestation certificate's key")
        }
        return .packedCertificate
    }
}

/// Owns one parsed X.509 certificate (`X509`).
final class Certificate {
    let certificate: OpaquePointer

    init(der: [UInt8]) throws(WebAuthnError) {
        let parsed = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
            var cursor = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            ERR_clear_error()
            throw .attestation("the attestation certificate is not DER X.509")
        }
        certificate = parsed
    }

    deinit {
        X509_free(certificate)
    }

    /// The subject public key.
    func publicKey() throws(WebAuthnError) -> PublicKeyHandle {
        guard let key = X509_get_pubkey(certificate) else {
            ERR_clear_error()
            throw .attestation("the attestation certificate's public key cannot be read")
        }
        return PublicKeyHandle(taking: key)
    }

    /// The requirements of §8.2.1 for a packed attestation certificate: version 3; subject C, O, OU "Authenticator
    /// Attestation" and CN; basic constraints with CA false; the AAGUID extension, when present, not critical and
    /// equal to `aaguid`.
    func checkAttestationRequirements(aaguid: [UInt8]) throws(WebAuthnError) {
        // X509_get_version counts from 0.
        guard X509_get_version(certificate) == 2 else { throw .attestation("the attestation certificate is not X.509 v3") }
        guard let subject = X509_get_subject_name(certificate) else {
            throw .attestation("the attestation certificate has no subject")
        }
        for (nid, name) in [(NID_countryName, "C"), (NID_organizationName, "O"), (NID_organizationalUnitName, "OU"),
            (NID_commonName, "CN")]
        {
            guard let value = Self.subjectValue(subject, nid: nid), !value.isEmpty else {
                throw .attestation("the attestation certificate's subject has no \(name)")
            }
            if nid == NID_organizationalUnitName, value != Array("Authenticator Attestation".utf8) {
                throw .attestation("the attestation certificate's subject OU is not \"Authenticator Attestation\"")
            }
        }
        let constraints = X509_get_ext_by_NID(certificate, NID_basic_constraints, -1)
        guard constraints >= 0, let value = extensionValue(at: constraints) else {
            throw .attestation("the attestation certificate has no basic constraints")
        }
        guard let isCA = Self.basicConstraintsCA(value) else {
            throw .attestation("the attestation certificate's basic constraints are not DER")
        }
        guard !isCA else { throw .attestation("the attestation certificate is a CA certificate") }
        guard let oid = OBJ_txt2obj(PackedAttestation.aaguidExtensionOID, 1) else {
            throw .attestation("OpenSSL could not read the AAGUID extension's OID")
        }
        defer { ASN1_OBJECT_free(oid) }
        let index = X509_get_ext_by_OBJ(certificate, oid, -1)
        guard index >= 0 else { return }
        guard let item = X509_get_ext(certificate, index), X509_EXTENSION_get_critical(item) == 0 else {
            throw .attestation("the attestation certificate's AAGUID extension is critical")
        }
        // The extension's value is an OCTET STRING holding the 16 AAGUID bytes.
        guard extensionValue(at: index) == [0x04, 0x10] + aaguid else {
            throw .attestation("the attestation certificate's AAGUID is not the authenticator data's")
        }
    }

    /// The DER bytes inside the extension's `extnValue`.
    private func extensionValue(at index: Int32) -> [UInt8]? {
        guard let item = X509_get_ext(certificate, index), let data = X509_EXTENSION_get_data(item) else { return nil }
        return Self.bytes(of: data)
    }

    private static func bytes(of string: UnsafeMutablePointer<ASN1_STRING>) -> [UInt8]? {
        let length = Int(ASN1_STRING_length(string))
        guard length >= 0, let start = ASN1_STRING_get0_data(string) else { return length == 0 ? [] : nil }
        return Array(UnsafeBufferPointer(start: start, count: length))
    }

    /// The value of the subject's first attribute `nid`, as its string's bytes.
    private static func subjectValue(_ name: OpaquePointer, nid: Int32) -> [UInt8]? {
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else {
            return nil
        }
        return bytes(of: data)
    }

    /// Reads DER `BasicConstraints ::= SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint INTEGER OPTIONAL }` and
    /// tells cA; nil when the bytes are not such a sequence.
    static func basicConstraintsCA(_ der: [UInt8]) -> Bool? {
        guard der.count >= 2, der[0] == 0x30, der[1] < 0x80, Int(der[1]) == der.count - 2 else { return nil }
        guard der.count > 2 else { return false }
        if der[2] == 0x01 {
            guard der.count >= 5, der[3] == 0x01 else { return nil }
            return der[4] != 0
        }
        return der[2] == 0x02 ? false : nil
    }
}
