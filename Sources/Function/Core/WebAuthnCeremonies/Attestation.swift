import ChallengeCrypto
import COpenSSL

/// What an attestation statement proved.
enum AttestationResult: Equatable {
    /// Format `none`, or a format whose statement is not checked.
    case unverified
    /// `packed` self attestation: signed by the credential key itself.
    case packedSelf
    /// `packed` with a certificate chain: signed by the leaf certificate's key, which meets §8.2.1; when the policy
    /// has trusted roots, the chain verified to one of them.
    case packedCertificate
}

/// The `packed` attestation statement format (WebAuthn §8.2).
enum PackedAttestation {
    /// The OID of the FIDO extension that carries the AAGUID in an attestation certificate.
    static let aaguidExtensionOID = "1.3.6.1.4.1.45724.1.1.4"
    /// The most certificates an `x5c` may hold (bounds work on untrusted input).
    static let maximumChainLength = 8

    /// Verifies `statement` over `authenticatorData ‖ clientDataHash`; when `trustedRoots` (DER) holds any, an `x5c`
    /// must also verify to one of them.
    static func verify(
        _ statement: CBORValue, authenticatorData: AuthenticatorData, credential: AuthenticatorData.AttestedCredential,
        credentialKey: COSEKey, clientDataHash: [UInt8], trustedRoots: [[UInt8]] = []
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
        if !trustedRoots.isEmpty {
            try leaf.verifyChain(intermediates: certificates.dropFirst().compactMap(\.bytesValue), roots: trustedRoots)
        }
        return .packedCertificate
    }
}

/// Reads the trust anchors attestation chains verify to, from the PEM text a deployment ships.
public enum AttestationRoots {
    /// Why a PEM file cannot serve as attestation roots.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// The DER of each `CERTIFICATE` in `pem`, in order and without repeats: at least one, each a CA certificate as
    /// OpenSSL judges it (basic constraints CA:TRUE, or a self-signed v1 root).
    public static func parse(pem: [UInt8]) throws(Problem) -> [[UInt8]] {
        let expected = pem.ranges(of: Array("-----BEGIN CERTIFICATE-----".utf8)).count
        guard expected > 0 else { throw Problem(description: "it holds no -----BEGIN CERTIFICATE----- block") }
        // A memory BIO reads the bytes in place, so it lives only inside this closure.
        let parsed = pem.withUnsafeBytes { bytes -> Result<[[UInt8]], Problem> in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else {
                return .failure(Problem(description: "OpenSSL could not open it"))
            }
            defer { BIO_free(bio) }
            return readCertificates(bio, expected: expected)
        }
        ERR_clear_error()
        return try parsed.get()
    }

    private static func readCertificates(_ bio: OpaquePointer, expected: Int) -> Result<[[UInt8]], Problem> {
        var roots: [[UInt8]] = []
        var position = 0
        while let read = PEM_read_bio_X509(bio, nil, nil, nil) {
            position += 1
            let certificate = Certificate(taking: read)
            guard X509_check_ca(certificate.certificate) != 0 else {
                return .failure(Problem(description: "certificate \(position) is not a CA certificate (basic constraints CA:TRUE)"))
            }
            guard let der = certificate.der() else {
                return .failure(Problem(description: "certificate \(position) cannot be encoded"))
            }
            if !roots.contains(der) { roots.append(der) }
        }
        guard position >= expected else {
            return .failure(Problem(description: "certificate \(position + 1) is not a PEM X.509 certificate"))
        }
        return .success(roots)
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

    /// Owns `certificate`, which the caller must not free.
    init(taking certificate: OpaquePointer) {
        self.certificate = certificate
    }

    deinit {
        X509_free(certificate)
    }

    /// The certificate's DER; nil when OpenSSL cannot encode it.
    func der() -> [UInt8]? {
        let length = i2d_X509(certificate, nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return i2d_X509(certificate, &cursor)
        }
        return written == length ? bytes : nil
    }

    /// Certificate path validation (RFC 5280, as OpenSSL's `X509_verify_cert` does it, at the current time) from this
    /// leaf through `intermediates` (DER, untrusted, in any order) to one of `roots` (DER): the only trust anchors, with
    /// no default paths and no system store. A configured root need not be self-signed (an intermediate a vendor
    /// publishes may be the anchor), but only configured certificates anchor.
    func verifyChain(intermediates: [[UInt8]], roots: [[UInt8]]) throws(WebAuthnError) {
        defer { ERR_clear_error() }
        guard let store = X509_STORE_new() else { throw .attestation("OpenSSL could not make a certificate store") }
        defer { X509_STORE_free(store) }
        for der in roots {
            guard let root = try? Certificate(der: der) else { throw .attestation("a trusted root is not DER X.509") }
            // The store takes its own reference.
            guard X509_STORE_add_cert(store, root.certificate) == 1 else {
                throw .attestation("OpenSSL could not add a trusted root to the store")
            }
        }
        guard X509_STORE_set_flags(store, UInt(X509_V_FLAG_PARTIAL_CHAIN)) == 1 else {
            throw .attestation("OpenSSL could not set the store's flags")
        }
        // The stack borrows the certificates, which the array keeps alive until it is freed.
        var untrusted: [Certificate] = []
        for der in intermediates { untrusted.append(try Certificate(der: der)) }
        guard let stack = copenssl_x509_stack_new() else { throw .attestation("OpenSSL could not make a certificate stack") }
        defer { copenssl_x509_stack_free(stack) }
        for intermediate in untrusted {
            guard copenssl_x509_stack_push(stack, intermediate.certificate) > 0 else {
                throw .attestation("OpenSSL could not stack an intermediate certificate")
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw .attestation("OpenSSL could not make a verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, certificate, stack) == 1 else {
            throw .attestation("OpenSSL could not start verifying the certificate chain")
        }
        let verified = withExtendedLifetime(untrusted) { X509_verify_cert(context) }
        guard verified == 1 else {
            let reason = String(cString: X509_verify_cert_error_string(Int(X509_STORE_CTX_get_error(context))))
            throw .attestation("the attestation certificate chain does not verify to a trusted root: \(reason)")
        }
    }

    /// The subject public key.
    func publicKey() throws(WebAuthnError) -> OpenSSLKey {
        guard let key = X509_get_pubkey(certificate) else {
            ERR_clear_error()
            throw .attestation("the attestation certificate's public key cannot be read")
        }
        return OpenSSLKey(taking: key)
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
