import ChallengeFlows
import CurlHTTP
import Foundation
import LosslessJSON
import ServiceClients
import TestSupport
import Testing

/// Deliveries against moto, a real SES API server, run by the test on 127.0.0.1 with signature checking on:
/// moto verifies every request's Signature Version 4 against the access key it issued.
@Suite("SES delivery against moto", .serialized, .requires(.motoServer))
final class SESMotoEndToEndTests {
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
        let bootstrapCredentials = AWSCredentials(accessKeyID: "AKIDBOOTSTRAP", secretAccessKey: "bootstrap")
        _ = try Self.iam(["Action": "CreateUser", "UserName": "mailer"], at: endpoint, with: bootstrapCredentials, session)
        let allowAll = #"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}"#
        _ = try Self.iam(
            ["Action": "PutUserPolicy", "UserName": "mailer", "PolicyName": "all", "PolicyDocument": allowAll], at: endpoint,
            with: bootstrapCredentials, session)
        let key = try Self.iam(["Action": "CreateAccessKey", "UserName": "mailer"], at: endpoint, with: bootstrapCredentials, session)
        credentials = AWSCredentials(
            accessKeyID: try Self.element("AccessKeyId", in: key), secretAccessKey: try Self.element("SecretAccessKey", in: key))

        let identity = SigV4Signer(credentials: credentials, region: "eu-west-1", service: "ses").sign(
            SignableRequest(
                method: "POST", host: "127.0.0.1:\(port)", path: "/v2/email/identities",
                headers: [.init("Content-Type", "application/json")], body: Array(#"{"EmailIdentity":"no-reply@example.com"}"#.utf8)),
            at: .now())
        let created = try session.perform(
            HTTPRequest(
                method: .post, url: endpoint + "/v2/email/identities", headers: identity.headers.map { HTTPHeader($0.name, $0.value) },
                body: Array(#"{"EmailIdentity":"no-reply@example.com"}"#.utf8), totalTimeout: .seconds(10)))
        try #require(created.status == 200, "CreateEmailIdentity: \(String(decoding: created.body, as: UTF8.self))")
    }

    deinit { moto.stop() }

    private func delivery(secret: String? = nil, from: String = "Example Sign-in <no-reply@example.com>") throws -> SESCodeDelivery {
        try SESCodeDelivery(configuration: SESConfiguration(environment: [
            "AWS_REGION": "eu-west-1", "AWS_ACCESS_KEY_ID": credentials.accessKeyID,
            "AWS_SECRET_ACCESS_KEY": secret ?? credentials.secretAccessKey, "SES_FROM_ADDRESS": from, "SES_ENDPOINT": endpoint,
            "EMAIL_SUBJECT": "Sign-in code for {username}",
        ]))
    }

    @Test func codeTravelsToTheServerAndBack() throws {
        let message = CodeMessage(recipient: "jane@example.com", userName: "jane", code: "583920", validForSeconds: 180)
        let receipt = try delivery().send(message)
        #expect(receipt.attempts == 1)

        let data = try session.perform(HTTPRequest(method: .get, url: endpoint + "/moto-api/data.json", totalTimeout: .seconds(10)))
        let sent = try JSONValue(parsing: data.body).objectValue?["ses"]?.objectValue?["Message"]?.arrayValue ?? []
        let mine = try #require(sent.compactMap(\.objectValue).first { $0["id"]?.stringValue == receipt.messageID })
        #expect(mine["destinations"]?.objectValue?["ToAddresses"] == ["jane@example.com"])
        #expect(mine["source"]?.stringValue == "Example Sign-in <no-reply@example.com>")
        #expect(mine["subject"]?.stringValue == "Sign-in code for jane")
        #expect(mine["body"]?.stringValue?.contains("<strong>583920</strong>") == true)
    }

    @Test func unverifiedSenderIsRejectedWithoutRetry() throws {
        let error = SESFixtures.failure(of: try delivery(from: "stranger@example.org"))
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 400)
        #expect(response.code == "MessageRejected")
        #expect(!"\(error!)".contains(SESFixtures.message.code))
    }

    @Test func wrongSecretFailsTheSignatureCheck() throws {
        let error = SESFixtures.failure(of: try delivery(secret: "not-the-secret"))
        guard case .rejected(let response, attempts: 1)? = error else {
            Issue.record("expected a rejection after one attempt, got \(String(describing: error))")
            return
        }
        #expect(response.status == 403)
        #expect(!"\(error!)".contains("not-the-secret"))
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
            "moto's SES server could not start; install it with `pip install 'moto[server]'` (CI installs it). \(detail)"
        }
    }
}
