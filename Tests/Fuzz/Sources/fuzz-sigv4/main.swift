import ServiceClients

/// The request an input describes, as lines: the signing time in Unix seconds, the method, the path, the query
/// (`name=value` pairs joined with `&`, not decoded), then `Name: value` headers up to an empty line; the rest is the
/// body. Missing lines are empty, and a time that is not a number is 2015-08-30T12:36:00Z.
private struct FuzzedRequest {
    let date: SigningDate
    let request: SignableRequest

    init(_ input: UnsafeBufferPointer<UInt8>) {
        var rest = input[...]
        func nextLine() -> String {
            let end = rest.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
            defer { rest = rest[(end == rest.endIndex ? end : end + 1)...] }
            return String(decoding: rest[..<end], as: UTF8.self)
        }
        date = SigningDate(secondsSince1970: Int64(nextLine()) ?? 1_440_938_160)
        let method = nextLine()
        let path = nextLine()
        let query = nextLine().split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return SignableRequest.QueryParameter(String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
        var headers: [SignableRequest.Header] = []
        while !rest.isEmpty {
            let line = nextLine()
            if line.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            headers.append(SignableRequest.Header(String(parts[0]), parts.count > 1 ? String(parts[1]) : ""))
        }
        request = SignableRequest(
            method: method, host: "email.eu-west-1.amazonaws.com", path: path, query: query, headers: headers,
            body: Array(rest))
    }
}

private let signers = [
    SigV4Signer(
        credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "eu-west-1", service: "ses"),
    SigV4Signer(
        credentials: AWSCredentials(
            accessKeyID: "ASIAEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "token"),
        region: "us-east-1", service: "dynamodb", sendsContentHash: true),
]

/// One libFuzzer input, a request to sign (see ``FuzzedRequest``). Signing never fails, so it must not crash, and
/// its result must be well formed: a 64-digit lower-case hexadecimal signature, and a canonical request that starts
/// with the method and a canonical URI and query made only of unreserved characters, `%XX` escapes and (in the URI)
/// slashes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSigV4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fuzzed = FuzzedRequest(UnsafeBufferPointer(start: data, count: size))
    for signer in signers {
        let signed = signer.sign(fuzzed.request, at: fuzzed.date)
        guard signed.signature.utf8.count == 64,
            signed.signature.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { fatalError("malformed signature \(signed.signature)") }
        let lines = signed.canonicalRequest.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 3, lines[0].elementsEqual(fuzzed.request.method.utf8), lines[1].first == UInt8(ascii: "/"), isCanonical(lines[1], slashes: true), isCanonical(lines[2], slashes: false)
        else { fatalError("malformed canonical request:\n\(signed.canonicalRequest)") }
    }
    return 0
}

/// True when the text is unreserved characters, `%XX` escapes with upper-case digits, `=` and `&` (and slashes when
/// allowed): what percent-encoding leaves.
private func isCanonical(_ text: Substring.UTF8View, slashes: Bool) -> Bool {
    var remainingHexDigits = 0
    for byte in text {
        if remainingHexDigits > 0 {
            guard (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) else { return false }
            remainingHexDigits -= 1
            continue
        }
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            continue
        case UInt8(ascii: "%"): remainingHexDigits = 2
        case UInt8(ascii: "/"): guard slashes else { return false }
        case UInt8(ascii: "="), UInt8(ascii: "&"): guard !slashes else { return false }
        default: return false
        }
    }
    return remainingHexDigits == 0
}
