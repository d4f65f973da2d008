import Basics
import ServiceClients
import Testing

@Suite("State store configuration")
struct StateStoreConfigurationTests {
    static let dynamoDB = [
        "STATE_STORE": "dynamodb", "STATE_TABLE": "challenge-state", "AWS_REGION": "eu-west-1",
        "AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "very-secret", "AWS_SESSION_TOKEN": "token",
    ]

    @Test func noneIsTheDefault() throws {
        #expect(try StateStoreConfiguration(environment: [:]).backend == .none)
        #expect(try StateStoreConfiguration(environment: ["STATE_STORE": ""]).backend == .none)
        #expect(try StateStoreConfiguration(environment: ["STATE_STORE": "none"]).makeStore() == nil)
    }

    @Test func memoryNeedsNothingElse() throws {
        let configuration = try StateStoreConfiguration(environment: ["STATE_STORE": "memory"])
        #expect(configuration.backend == .memory)
        #expect(try configuration.makeStore() is MemoryStateStore)
    }

    @Test func dynamoDBDefaults() throws {
        let configuration = try StateStoreConfiguration(environment: Self.dynamoDB)
        let expected = DynamoDBConfiguration(
            region: "eu-west-1", credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "very-secret", sessionToken: "token"),
            tableName: "challenge-state")
        #expect(configuration.backend == .dynamoDB(expected))
        #expect(expected.endpoint.baseURL == "https://dynamodb.eu-west-1.amazonaws.com")
        #expect(expected.timeBudget == .milliseconds(1000))
        #expect(try configuration.makeStore() is DynamoDBStateStore)
    }

    @Test func dynamoDBOptions() throws {
        var environment = Self.dynamoDB
        environment["AWS_REGION"] = nil
        environment["AWS_DEFAULT_REGION"] = "us-east-2"
        environment["STATE_ENDPOINT"] = "http://127.0.0.1:8000/"
        environment["STATE_TIMEOUT_MS"] = "250"
        guard case .dynamoDB(let configuration) = try StateStoreConfiguration(environment: environment).backend else {
            Issue.record("expected DynamoDB")
            return
        }
        #expect(configuration.region == "us-east-2")
        #expect(configuration.endpoint == AWSEndpoint(url: "http://127.0.0.1:8000"))
        #expect(configuration.endpoint.host == "127.0.0.1:8000")
        #expect(configuration.timeBudget == .milliseconds(250))
    }

    @Test(arguments: [
        ("STATE_STORE", "redis", "STATE_STORE", "is \"redis\"; expected none, memory or dynamodb"),
        ("STATE_TABLE", "", "STATE_TABLE", "is not set: name the DynamoDB table of sign-in state"),
        ("STATE_TABLE", "my table", "STATE_TABLE", "is \"my table\", not a table name (3 to 255 of A-Z a-z 0-9 _ - .)"),
        ("STATE_ENDPOINT", "localhost:8000", "STATE_ENDPOINT", "is \"localhost:8000\"; expected http(s)://host[:port] with no path"),
        ("STATE_TIMEOUT_MS", "99", "STATE_TIMEOUT_MS", "is \"99\"; expected whole milliseconds from 100 to 2000"),
        ("STATE_TIMEOUT_MS", "2001", "STATE_TIMEOUT_MS", "is \"2001\"; expected whole milliseconds from 100 to 2000"),
        ("AWS_REGION", "", "AWS_REGION", "is not set (Lambda sets it; set it to run elsewhere)"),
        ("AWS_REGION", "EU West", "AWS_REGION", "is \"EU West\", not a region name such as eu-west-1"),
        ("AWS_SECRET_ACCESS_KEY", "", "AWS_SECRET_ACCESS_KEY", "is not set"),
    ])
    func badValuesNameTheirVariable(variable: String, value: String, named: String, problem: String) {
        var environment = Self.dynamoDB
        environment[variable] = value
        #expect(throws: SettingError(variable: named, problem: problem)) {
            try StateStoreConfiguration(environment: environment)
        }
    }

    @Test func errorsNeverShowTheSecret() {
        var environment = Self.dynamoDB
        environment["AWS_SECRET_ACCESS_KEY"] = "very secret"
        #expect {
            try StateStoreConfiguration(environment: environment)
        } throws: { error in
            "\(error)" == "AWS_SECRET_ACCESS_KEY contains spaces or characters outside ASCII"
        }
    }
}
