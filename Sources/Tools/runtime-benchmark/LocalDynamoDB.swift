import DevelopmentSupport
import Foundation
import Invoker

/// moto's DynamoDB on 127.0.0.1 with the state table, for the bootstrap's figures with `STATE_STORE=dynamodb`, behind
/// a ``CountingProxy`` that counts the bootstrap's connections and requests (its round trips to the store).
/// Nil when moto or boto3 is not installed (`pip install 'moto[server]' boto3`), or when moto does not answer within
/// 30 s (the setup says why on standard error).
final class LocalDynamoDB {
    /// moto itself, for the table's setup and clearing (which the proxy does not count).
    let endpoint: String
    /// What the bootstrap is pointed at.
    let proxy: CountingProxy
    private let server: Process

    static let table = "sign-in-state"

    init?() {
        guard let port = FreePort.find() else { return nil }
        endpoint = "http://127.0.0.1:\(port)"
        server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        guard let proxy = CountingProxy(upstreamPort: UInt16(port)) else { return nil }
        self.proxy = proxy
        guard (try? server.run()) != nil else { proxy.stop(); return nil }
        let setup = Process()
        setup.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        setup.arguments = [
            "python3", "-c",
            """
            import boto3, botocore.config, sys, time
            quick = botocore.config.Config(connect_timeout=1, read_timeout=5, retries={'max_attempts': 1})
            client = boto3.client('dynamodb', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='benchmark', aws_secret_access_key='benchmark', config=quick)
            deadline = time.monotonic() + 30
            while True:
                try:
                    client.create_table(TableName=sys.argv[2], BillingMode='PAY_PER_REQUEST', AttributeDefinitions=[{'AttributeName': 'pk', 'AttributeType': 'S'}], KeySchema=[{'AttributeName': 'pk', 'KeyType': 'HASH'}])
                    break
                except Exception as error:
                    if time.monotonic() > deadline:
                        sys.exit(f"moto's DynamoDB did not answer within 30 s at {sys.argv[1]}: {error}")
                    time.sleep(0.1)
            """,
            endpoint, Self.table,
        ]
        guard (try? setup.run()) != nil else { stop(); return nil }
        setup.waitUntilExit()
        guard setup.terminationStatus == 0 else { stop(); return nil }
    }

    /// Deletes every record, so that the next run starts below the send limit (a run sends a code at every Create,
    /// and runs follow each other within one send window).
    func clear() {
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        script.arguments = [
            "python3", "-c",
            """
            import boto3, sys
            table = boto3.resource('dynamodb', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='benchmark', aws_secret_access_key='benchmark').Table(sys.argv[2])
            for item in table.scan(ProjectionExpression='pk')['Items']:
                table.delete_item(Key={'pk': item['pk']})
            """,
            endpoint, Self.table,
        ]
        guard (try? script.run()) != nil else { return }
        script.waitUntilExit()
    }

    /// The bootstrap's settings for this store, through the proxy. Every Create sends a fresh code (no reuse, no
    /// throttle), so that each one pays the full path: the decision recorded in the store before the delivery.
    var environment: [String: String] {
        [
            "STATE_STORE": "dynamodb", "STATE_TABLE": Self.table, "STATE_ENDPOINT": "http://127.0.0.1:\(proxy.port)", "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "benchmark", "AWS_SECRET_ACCESS_KEY": "benchmark", "RESEND_AFTER_SECONDS": "0",
            "MAX_SENDS_PER_WINDOW": "1000", "SEND_WINDOW_SECONDS": "60",
        ]
    }

    func stop() {
        proxy.stop()
        if server.isRunning { server.terminate() }
        server.waitUntilExit()
    }
}
