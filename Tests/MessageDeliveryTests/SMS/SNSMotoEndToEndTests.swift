import CurlHTTP
import Foundation
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// Deliveries against moto, a real SNS API server, run by the test on 127.0.0.1 with signature checking on:
/// moto verifies every request's Signature Version 4 against the access key it issued.
@Suite("SNS delivery against moto", .serialized, .requires(.motoServer))
final class SNSMotoEndToEndTests {
    private let moto: LocalServerProcess
    private let endpoint: String
    private let credentials: AWSCredentials
    private let session: CurlSession

    init() throws {
        let port = LocalServerProcess.freePort()
        do {
            // The first three requests (creating the IAM user, its policy and its key) need no signature.
            moto = try LocalServerProcess(
                arguments: ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], port: port,
                environment: ["INITIAL_NO_AUTH_ACTION_COUNT": "3"])
        } catch {
            throw MotoMissing(detail: "\(error)")
        }
        endpoint = "http://127.0.0.1:\(port)"
        session = try CurlSession()
        let bootstrap = AWSCredentials(accessKeyID: "AKIDBOOTSTRAP", secretAccessKey: "bootstrap")
        _ = try Self.iam(["Action": "CreateUser", "UserName": "texter"], at: endpoint, with: bootstrap, session)
        let allowAll = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#
        _ = try Self.iam(
            ["Action": "PutUserPolicy", "UserName": "texter", "PolicyName": "all", "PolicyDocument": allowAll], at: endpoint,
            with: bootstrap, session)
        let key = try Self.iam(["Action": "CreateAccessKey", "UserName": "texter"], at: endpoint, with: bootstrap, session)
        credentials = AWSCredentials(
            accessKeyID: try Self.element("AccessKeyId", in: key), secretAccessKey: try Self.element("SecretAccessKey", in: key))
    }

    deinit { moto.stop() }

    private func delivery(secret: String? = nil) throws -> SNSCodeDelivery {
        try SNSCodeDelivery(configuration: SNSConfiguration(environment: [
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": credentials.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": secret ?? credentials.secretAccessKey, "SNS_ENDPOINT": endpoint,
            "SMS_SENDER_ID": "Example", "SMS_TEXT_TEMPLATE": "Code {code}, valid {minutes} min",
        ]))
    }

    @Test func codeTravelsToTheServerAndBack() throws {
        let receipt = try delivery().send(code: "583920", to: "+15555550100", validForSeconds: 180)
        #expect(receipt.attempts == 1)
        let messageID = try #require(receipt.messageID)

        let data = try session.perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
        let sent = try JSONValue(parsing: data.body).objectValue?["sns"]?.objectValue?["SMS"]?.arrayValue ?? []
        let mine = try #require(
            sent.compactMap(\.objectValue).first { $0["message_id"]?.stringValue == messageID },
            "no SMS \(messageID) in \(String(decoding: data.body, as: UTF8.self).prefix(2000))")
        #expect(mine["phone_number"]?.stringValue == "+15555550100")
        #expect(mine["message"]?.stringValue == "Code 583920, valid 3 min")
    }

    @Test func wrongSecretFailsTheSignatureCheckWithoutRetry() throws {
        let error = SNSFixtures.failure(of: try delivery(secret: "not-the-secret"))
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 403)
        #expect(response.code == "SignatureDoesNotMatch")
        #expect(!"\(error!)".contains("not-the-secret"))
        #expect(!"\(error!)".contains(SNSFixtures.code))
    }

    /// A signed IAM query-API call; returns the XML answer.
    private static func iam(
        _ parameters: [String: String], at endpoint: String, with credentials: AWSCredentials, _ session: CurlSession
    ) throws -> String {
        let form = (parameters.merging(["Version": "2010-05-08"]) { $1 }).sorted { $0.key < $1.key }
            .map { "\(formEncoded($0.key))=\(formEncoded($0.value))" }.joined(separator: "&")
        let signed = SigV4Signer(credentials: credentials, region: "us-east-1", service: "iam").sign(
            SignableRequest(
                method: "POST", host: String(endpoint.dropFirst("http://".count)), path: "/",
                headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: Array(form.utf8)),
            at: .now())
        let response = try session.perform(
            HTTPRequest(
                method: .post, url: endpoint + "/", headers: signed.headers.map { HTTPHeader($0.name, $0.value) },
                body: Array(form.utf8), totalTimeout: .seconds(10)))
        let text = String(decoding: response.body, as: UTF8.self)
        try #require(response.status == 200, "IAM \(parameters["Action"]!): \(text)")
        return text
    }

    private static func formEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"))!
    }

    private static func element(_ name: String, in xml: String) throws -> String {
        let start = try #require(xml.range(of: "<\(name)>"), "no <\(name)> in \(xml)")
        let end = try #require(xml.range(of: "</\(name)>", range: start.upperBound..<xml.endIndex))
        return String(xml[start.upperBound..<end.lowerBound])
    }

    struct MotoMissing: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "moto's SNS server could not start; install it with `pip install 'moto[server]'` (CI installs it). \(detail)"
        }
    }
}
