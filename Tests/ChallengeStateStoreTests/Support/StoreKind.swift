import Foundation
import ServiceClients
import TestSupport
import Testing

/// The two stores the behaviour suite runs against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory
    case dynamoDB

    var testDescription: String { rawValue }

    /// The stores this run can check: DynamoDB only when moto's server is installed (without it, the DynamoDB cases
    /// are left out, and DynamoDBMotoTests is skipped naming what to install).
    static var available: [StoreKind] {
        ExternalTool.motoServer.isAvailable ? allCases : [.memory]
    }

    /// A new store; for DynamoDB, one on the suite's moto table.
    func make() throws -> any StateStore {
        switch self {
        case .memory: MemoryStateStore()
        case .dynamoDB: try MotoDynamoDB.running().store()
        }
    }

    /// A key no other test uses, since DynamoDB tests share one table.
    static func uniqueKey() -> String {
        "test-" + UUID().uuidString
    }
}
