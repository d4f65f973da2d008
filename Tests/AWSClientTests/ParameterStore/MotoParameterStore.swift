import Foundation
import TestSupport

/// moto's SSM (and IAM) API, run on 127.0.0.1 with access control on: every request after the first few must be
/// signed with a key moto issued, and is allowed only by that key's IAM policy.
final class MotoParameterStore {
    let server: LocalServerProcess
    var endpoint: String { "http://127.0.0.1:\(server.port)" }
    /// A key whose policy allows everything.
    let reader: (id: String, secret: String)

    /// The IAM requests that create the user, its policy and its key need no signature.
    private static let unsignedSetupRequests = 3

    init() throws {
        let port = LocalServerProcess.freePort()
        do {
            server = try LocalServerProcess(
                arguments: ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], port: port,
                environment: ["INITIAL_NO_AUTH_ACTION_COUNT": String(Self.unsignedSetupRequests)])
        } catch {
            throw MotoMissing(detail: "\(error)")
        }
        let key = try Self.python(Self.createUser, endpoint: "http://127.0.0.1:\(port)").split(separator: " ").map(String.init)
        guard key.count == 2 else {
            server.stop()
            throw MotoMissing(detail: "the IAM set-up printed \(key.count) fields, not 2")
        }
        reader = (key[0], key[1])
    }

    deinit { server.stop() }

    /// Stores a parameter with boto3, signed with the reader's key.
    func put(_ name: String, value: String, type: String = "SecureString") throws {
        _ = try Self.python(
            """
            import boto3, os, sys
            ssm = boto3.client("ssm", endpoint_url=os.environ["ENDPOINT"], region_name="us-east-1",
                aws_access_key_id=os.environ["KEY_ID"], aws_secret_access_key=os.environ["KEY_SECRET"])
            ssm.put_parameter(Name=sys.argv[1], Value=sys.argv[2], Type=sys.argv[3], Overwrite=True)
            """, arguments: [name, value, type], endpoint: endpoint, environment: ["KEY_ID": reader.id, "KEY_SECRET": reader.secret])
    }

    private static let createUser = """
        import boto3, json, os
        iam = boto3.client("iam", endpoint_url=os.environ["ENDPOINT"], region_name="us-east-1",
            aws_access_key_id="AKIDBOOTSTRAP", aws_secret_access_key="bootstrap")
        iam.create_user(UserName="reader")
        iam.put_user_policy(UserName="reader", PolicyName="all", PolicyDocument=json.dumps({"Version": "2012-10-17",
            "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
        key = iam.create_access_key(UserName="reader")["AccessKey"]
        print(key["AccessKeyId"] + " " + key["SecretAccessKey"])
        """

    /// Runs a Python program with `ENDPOINT` set; its standard output, trimmed. Throws with its error output if it fails.
    private static func python(
        _ program: String, arguments: [String] = [], endpoint: String, environment: [String: String] = [:]
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["ENDPOINT": endpoint]) { $1 }) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonFailed(output: errorText) }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct PythonFailed: Error, CustomStringConvertible {
        let output: String
        var description: String { "a boto3 set-up step failed: \(output)" }
    }

    struct MotoMissing: Error, CustomStringConvertible {
        let detail: String
        var description: String {
            "moto's SSM server could not start; install it with `pip install 'moto[server]'` (CI installs it). \(detail)"
        }
    }
}
