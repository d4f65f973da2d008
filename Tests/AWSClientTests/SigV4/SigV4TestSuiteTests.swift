import ChallengeCrypto
import ServiceClients
import Testing

/// Cases of AWS's Signature Version 4 test suite (aws-sig-v4-test-suite, service `service`, us-east-1,
/// 2015-08-30T12:36:00Z, access key `AKIDEXAMPLE`). Each names the suite case it reproduces; the expected
/// signatures are those of the suite's `.authz` files, and canonical requests / strings to sign those of its
/// `.creq` / `.sts` files where the case ships them.
struct SuiteCase: Sendable, CustomTestStringConvertible {
    var name: String
    var method = "GET"
    var path = "/"
    var query: [SignableRequest.QueryParameter] = []
    var headers: [SignableRequest.Header] = []
    var body = ""
    var sessionToken: String?
    /// The canonical headers and signed header names, between the query line and the payload hash.
    var canonicalHeaders = "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date"
    var canonicalPath = "/"
    var canonicalQuery = ""
    var stringToSignHash: String?
    var signature: String

    var testDescription: String { name }
}

private let suiteToken =
    "AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8Y"
    + "UuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE"
    + "8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2IC"
    + "CR/oLxBA=="

private let unreserved = "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

let suiteCases: [SuiteCase] = [
    SuiteCase(
        name: "get-vanilla",
        stringToSignHash: "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
        signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
    SuiteCase(
        name: "post-vanilla", method: "POST",
        signature: "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
    SuiteCase(
        name: "get-vanilla-query-order-key-case", query: [.init("Param2", "value2"), .init("Param1", "value1")],
        canonicalQuery: "Param1=value1&Param2=value2",
        stringToSignHash: "816cd5b414d056048ba4f7c5386d6e0533120fb1fcfa93762cf0fc39e2cf19e0",
        signature: "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
    SuiteCase(
        name: "get-vanilla-query-order-key", query: [.init("Param1", "value2"), .init("Param1", "Value1")],
        canonicalQuery: "Param1=Value1&Param1=value2",
        stringToSignHash: "704b4cef673542d84cdff252633f065e8daeba5f168b77116f8b1bcaf3d38f89",
        signature: "eedbc4e291e521cf13422ffca22be7d2eb8146eecf653089df300a15b2382bd1"),
    SuiteCase(
        name: "get-vanilla-query-order-value", query: [.init("Param1", "value2"), .init("Param1", "value1")],
        canonicalQuery: "Param1=value1&Param1=value2",
        stringToSignHash: "c968629d70850097a2d8781c9bf7edcb988b04cac14cca9be4acc3595f884606",
        signature: "5772eed61e12b33fae39ee5e7012498b51d56abc0abb7c60486157bd471c4694"),
    SuiteCase(
        name: "get-vanilla-query-unreserved", query: [.init(unreserved, unreserved)],
        canonicalQuery: "\(unreserved)=\(unreserved)",
        signature: "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
    SuiteCase(
        name: "get-vanilla-utf8-query", query: [.init("\u{1234}", "bar")], canonicalQuery: "%E1%88%B4=bar",
        signature: "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
    SuiteCase(
        name: "get-vanilla-empty-query-key", query: [.init("Param1", "value1")], canonicalQuery: "Param1=value1",
        signature: "a67d582fa61cc504c4bae71f336f98b97f1ea3c7a6bfe1b6e45aec72011b9aeb"),
    SuiteCase(
        name: "post-vanilla-empty-query-value", method: "POST", query: [.init("Param1", "value1")],
        canonicalQuery: "Param1=value1",
        signature: "28038455d6de14eafc1f9222cf5aa6f1a96197d7deb8263271d420d138af7f11"),
    SuiteCase(
        name: "get-utf8", path: "/\u{1234}", canonicalPath: "/%E1%88%B4",
        signature: "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
    SuiteCase(
        name: "get-unreserved", path: "/" + unreserved, canonicalPath: "/" + unreserved,
        signature: "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
    SuiteCase(
        name: "normalize-path/get-space", path: "/example space/", canonicalPath: "/example%20space/",
        signature: "652487583200325589f1fba4c7e578f72c47cb61beeca81406b39ddec1366741"),
    SuiteCase(
        name: "normalize-path/get-slashes", path: "//example//", canonicalPath: "/example/",
        signature: "9a624bd73a37c9a373b5312afbebe7a714a789de108f0bdfe846570885f57e84"),
    SuiteCase(
        name: "normalize-path/get-slash-dot-slash", path: "/./",
        signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
    SuiteCase(
        name: "normalize-path/get-slash-pointless-dot", path: "/./example", canonicalPath: "/example",
        signature: "ef75d96142cf21edca26f06005da7988e4f8dc83a165a80865db7089db637ec5"),
    SuiteCase(
        name: "normalize-path/get-relative-relative", path: "/example1/example2/../..",
        signature: "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
    SuiteCase(
        name: "get-header-key-duplicate",
        headers: [.init("My-Header1", "value2"), .init("My-Header1", "value2"), .init("My-Header1", "value1")],
        canonicalHeaders: "host:example.amazonaws.com\nmy-header1:value2,value2,value1\nx-amz-date:20150830T123600Z\n\n"
            + "host;my-header1;x-amz-date",
        signature: "c9d5ea9f3f72853aea855b47ea873832890dbdd183b4468f858259531a5138ea"),
    SuiteCase(
        name: "get-header-value-order",
        headers: [
            .init("My-Header1", "value4"), .init("My-Header1", "value1"), .init("My-Header1", "value3"),
            .init("My-Header1", "value2"),
        ],
        canonicalHeaders: "host:example.amazonaws.com\nmy-header1:value4,value1,value3,value2\n"
            + "x-amz-date:20150830T123600Z\n\nhost;my-header1;x-amz-date",
        signature: "08c7e5a9acfcfeb3ab6b2185e75ce8b1deb5e634ec47601a50643f830c755c01"),
    SuiteCase(
        name: "get-header-value-trim", headers: [.init("My-Header1", " value1"), .init("My-Header2", "\"a   b   c\"")],
        canonicalHeaders: "host:example.amazonaws.com\nmy-header1:value1\nmy-header2:\"a b c\"\n"
            + "x-amz-date:20150830T123600Z\n\nhost;my-header1;my-header2;x-amz-date",
        signature: "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
    SuiteCase(
        name: "post-header-key-sort", method: "POST", headers: [.init("My-Header1", "value1")],
        canonicalHeaders: "host:example.amazonaws.com\nmy-header1:value1\nx-amz-date:20150830T123600Z\n\n"
            + "host;my-header1;x-amz-date",
        signature: "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
    SuiteCase(
        name: "post-header-value-case", method: "POST", headers: [.init("My-Header1", "VALUE1")],
        canonicalHeaders: "host:example.amazonaws.com\nmy-header1:VALUE1\nx-amz-date:20150830T123600Z\n\n"
            + "host;my-header1;x-amz-date",
        signature: "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
    SuiteCase(
        name: "post-x-www-form-urlencoded", method: "POST",
        headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: "Param1=value1",
        canonicalHeaders: "content-type:application/x-www-form-urlencoded\nhost:example.amazonaws.com\n"
            + "x-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date",
        stringToSignHash: "42a5e5bb34198acb3e84da4f085bb7927f2bc277ca766e6d19c73c2154021281",
        signature: "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"),
    SuiteCase(
        name: "post-x-www-form-urlencoded-parameters", method: "POST",
        headers: [.init("Content-Type", "application/x-www-form-urlencoded; charset=utf8")], body: "Param1=value1",
        canonicalHeaders: "content-type:application/x-www-form-urlencoded; charset=utf8\nhost:example.amazonaws.com\n"
            + "x-amz-date:20150830T123600Z\n\ncontent-type;host;x-amz-date",
        signature: "1a72ec8f64bd914b0e42e42607c7fbce7fb2c7465f63e3092b3b0d39fa77a6fe"),
    SuiteCase(
        name: "post-sts-token/post-sts-header-before", method: "POST", sessionToken: suiteToken,
        canonicalHeaders: "host:example.amazonaws.com\nx-amz-date:20150830T123600Z\nx-amz-security-token:\(suiteToken)\n\n"
            + "host;x-amz-date;x-amz-security-token",
        signature: "85d96828115b5dc0cfc3bd16ad9e210dd772bbebba041836c64533a82be05ead"),
]

@Suite("Signature Version 4 test suite")
struct SigV4TestSuiteTests {
    static let date = SigningDate(secondsSince1970: 1_440_938_160)

    @Test(arguments: suiteCases)
    func signsLikeTheSuite(_ suiteCase: SuiteCase) {
        let credentials = AWSCredentials(
            accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            sessionToken: suiteCase.sessionToken)
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")
        let request = SignableRequest(
            method: suiteCase.method, host: "example.amazonaws.com", path: suiteCase.path, query: suiteCase.query,
            headers: suiteCase.headers, body: Array(suiteCase.body.utf8))

        let signed = signer.sign(request, at: Self.date)

        let payloadHash = Hex.sha256(suiteCase.body)
        #expect(
            signed.canonicalRequest
                == [suiteCase.method, suiteCase.canonicalPath, suiteCase.canonicalQuery, suiteCase.canonicalHeaders, payloadHash]
                .joined(separator: "\n"))
        let stringToSignLines = signed.stringToSign.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(stringToSignLines.prefix(3) == ["AWS4-HMAC-SHA256", "20150830T123600Z", "20150830/us-east-1/service/aws4_request"])
        #expect(stringToSignLines.last.map(String.init) == suiteCase.stringToSignHash ?? Hex.sha256(signed.canonicalRequest))
        let signedNames = suiteCase.canonicalHeaders.split(separator: "\n").last!
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, "
                + "SignedHeaders=\(signedNames), Signature=\(suiteCase.signature)")
    }

    /// Amazon S3's documented example "GET Object" (bytes 0-9 of `examplebucket/test.txt`), the reference for a
    /// signed `X-Amz-Content-Sha256`.
    @Test func signsTheContentHashWhenAsked() {
        let credentials = AWSCredentials(
            accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "s3", sendsContentHash: true)
        let request = SignableRequest(
            method: "GET", host: "examplebucket.s3.amazonaws.com", path: "/test.txt", headers: [.init("Range", "bytes=0-9")])

        let signed = signer.sign(request, at: SigningDate(secondsSince1970: 1_369_353_600))

        let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        #expect(signed.headers.contains(.init("X-Amz-Content-Sha256", emptyHash)))
        #expect(
            signed.authorization
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }
}

extension Hex {
    static func sha256(_ text: String) -> String { encode(SHA256.hash(text)) }
}
