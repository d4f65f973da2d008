import ChallengeCrypto

/// Signs requests with AWS Signature Version 4 (`AWS4-HMAC-SHA256`) in the `Authorization` header.
public struct SigV4Signer: Sendable {
    public static let algorithm = "AWS4-HMAC-SHA256"

    public let credentials: AWSCredentials
    public let region: String
    /// The signing name of the service, such as `ses` or `iam`.
    public let service: String
    /// Whether to send and sign `X-Amz-Content-Sha256` (S3 requires it; most services do not).
    public let sendsContentHash: Bool

    public init(credentials: AWSCredentials, region: String, service: String, sendsContentHash: Bool = false) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.sendsContentHash = sendsContentHash
    }

    /// Adds `Host`, `X-Amz-Date`, `X-Amz-Security-Token` (temporary credentials), `X-Amz-Content-Sha256`
    /// (when asked) and `Authorization` to the request, signing every header it carries.
    public func sign(_ request: SignableRequest, at date: SigningDate) -> SignedRequest {
        let payloadHash = Hex.encode(SHA256.hash(request.body))
        var headers = [SignableRequest.Header("Host", request.host)]
        headers += request.headers.filter { header in
            !["host", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256", "authorization"]
                .contains(header.name.lowercased())
        }
        headers.append(SignableRequest.Header("X-Amz-Date", date.timestamp))
        if let token = credentials.sessionToken {
            headers.append(SignableRequest.Header("X-Amz-Security-Token", token))
        }
        if sendsContentHash {
            headers.append(SignableRequest.Header("X-Amz-Content-Sha256", payloadHash))
        }

        let canonicalHeaders = CanonicalHeaders(headers)
        let canonicalRequest = [
            request.method, request.canonicalURI, request.canonicalQuery, canonicalHeaders.block,
            canonicalHeaders.signedNames, payloadHash,
        ].joined(separator: "\n")
        let scope = "\(date.dateStamp)/\(region)/\(service)/aws4_request"
        let stringToSign = [Self.algorithm, date.timestamp, scope, Hex.encode(SHA256.hash(canonicalRequest))]
            .joined(separator: "\n")
        let signature = Hex.encode(HMACSHA256.authenticationCode(key: signingKey(dateStamp: date.dateStamp), message: stringToSign))

        headers.append(SignableRequest.Header(
            "Authorization",
            "\(Self.algorithm) Credential=\(credentials.accessKeyID)/\(scope), "
                + "SignedHeaders=\(canonicalHeaders.signedNames), Signature=\(signature)"))
        return SignedRequest(
            headers: headers, canonicalRequest: canonicalRequest, stringToSign: stringToSign, signature: signature)
    }

    /// HMAC chain from the secret over the date, region, service and `aws4_request`.
    private func signingKey(dateStamp: String) -> [UInt8] {
        [dateStamp, region, service, "aws4_request"].reduce(Array("AWS4\(credentials.secretAccessKey)".utf8)) { key, part in
            HMACSHA256.authenticationCode(key: key, message: part)
        }
    }
}

/// A signed request's headers, and the intermediate texts of the signature for checking against references.
///
/// Its description names the headers and shows the signature; it leaves out values that may hold a session token.
public struct SignedRequest: Sendable, CustomStringConvertible {
    /// Every header to send: the request's own, `Host`, the `X-Amz-*` ones and `Authorization`.
    public let headers: [SignableRequest.Header]
    public let canonicalRequest: String
    public let stringToSign: String
    /// Lower-case hexadecimal.
    public let signature: String

    /// The value of the `Authorization` header.
    public var authorization: String {
        headers.last { $0.name == "Authorization" }?.value ?? ""
    }

    public var description: String {
        "SignedRequest(headers: \(headers.map(\.name).joined(separator: ", ")), signature: \(signature))"
    }
}
