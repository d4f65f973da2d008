import Foundation
import LocalUserPool
import Testing

@Suite("The app client's settings from a template")
struct AppClientTemplateTests {
    @Test("Deploy/template.yaml allows CUSTOM_AUTH and the refresh flow, not USER_SRP_AUTH")
    func deployedTemplate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("Deploy/template.yaml"), encoding: .utf8)
        let client = try AppClientTemplate(yaml: text)
        #expect(client.flows.sortedNames == ["ALLOW_CUSTOM_AUTH", "ALLOW_REFRESH_TOKEN_AUTH"])
        #expect(client.flows.permits(.customAuth))
        #expect(client.flows.permits(.refreshTokenAuth))
        #expect(!client.flows.permits(.userSRPAuth))
        #expect(client.preventUserExistenceErrors)
        #expect(client.sessionValidityMinutes == 3)
    }

    @Test("a client without ExplicitAuthFlows gets Cognito's defaults; legacy names read as ALLOW_ names")
    func defaultsAndLegacyNames() throws {
        let bare = try AppClientTemplate(yaml: """
            Resources:
              Client:
                Type: AWS::Cognito::UserPoolClient
                Properties:
                  PreventUserExistenceErrors: LEGACY
              Other:
                Type: AWS::Lambda::Function
                Properties:
                  ExplicitAuthFlows:
                    - ALLOW_USER_PASSWORD_AUTH
            """)
        #expect(bare.flows == .cognitoDefault)
        #expect(!bare.preventUserExistenceErrors)
        #expect(bare.sessionValidityMinutes == nil)

        let legacy = try AppClientTemplate(yaml: """
            Resources:
              Client:
                Type: "AWS::Cognito::UserPoolClient"
                Properties:
                  ExplicitAuthFlows:
                  - CUSTOM_AUTH_FLOW_ONLY   # legacy
                  - 'ADMIN_NO_SRP_AUTH'
                  AuthSessionValidity: 15
            """)
        #expect(legacy.flows.sortedNames == ["ALLOW_ADMIN_USER_PASSWORD_AUTH", "ALLOW_CUSTOM_AUTH"])
        #expect(legacy.sessionValidityMinutes == 15)
    }

    @Test("an unknown flow, a session life out of range and a template without a client are refused")
    func refusals() {
        let unknown = #expect(throws: AppClientTemplate.ReadError.self) {
            try AppClientTemplate(yaml: "R:\n  C:\n    Type: AWS::Cognito::UserPoolClient\n    Properties:\n      ExplicitAuthFlows:\n        - ALLOW_EVERYTHING\n")
        }
        #expect(unknown?.description == "ExplicitAuthFlows lists \"ALLOW_EVERYTHING\", which is not a Cognito auth flow")
        #expect(throws: AppClientTemplate.ReadError.self) {
            try AppClientTemplate(yaml: "R:\n  C:\n    Type: AWS::Cognito::UserPoolClient\n    Properties:\n      AuthSessionValidity: 60\n")
        }
        #expect(throws: AppClientTemplate.ReadError.self) {
            try AppClientTemplate(yaml: "Resources: {}\n")
        }
    }
}
