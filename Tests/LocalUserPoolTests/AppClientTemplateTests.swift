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

@Suite("The app client's attribute lists from a template")
struct AppClientAttributeListTests {
    @Test("Deploy/template.yaml: the client writes only name/given_name/family_name/locale and reads no custom attribute")
    func deployedTemplate() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let client = try AppClientTemplate(yaml: String(contentsOf: root.appendingPathComponent("Deploy/template.yaml"), encoding: .utf8))
        #expect(client.writeAttributes == ["name", "given_name", "family_name", "locale"])
        let read = try #require(client.readAttributes)
        #expect(read.contains("email") && read.contains("email_verified") && !read.contains { $0.hasPrefix("custom:") })
    }

    @Test("block lists are read too; a client without the lists may write and read everything")
    func blockListsAndDefaults() throws {
        let listed = try AppClientTemplate(yaml: """
            Resources:
              Client:
                Type: AWS::Cognito::UserPoolClient
                Properties:
                  WriteAttributes:
                    - name
                    - "custom:nickname"
                  ReadAttributes: ['email', name]
            """)
        #expect(listed.writeAttributes == ["name", "custom:nickname"])
        #expect(listed.readAttributes == ["email", "name"])
        let bare = try AppClientTemplate(yaml: """
            Resources:
              Client:
                Type: AWS::Cognito::UserPoolClient
                Properties:
                  GenerateSecret: false
            """)
        #expect(bare.writeAttributes == nil && bare.readAttributes == nil)
        let settings = PoolSettings(flows: .cognitoDefault, writeAttributes: listed.writeAttributes, readAttributes: listed.readAttributes)
        #expect(settings.clientWrites("custom:nickname") && !settings.clientWrites("email"))
        #expect(settings.clientReads("sub") && settings.clientReads("email") && !settings.clientReads("custom:nickname"))
    }
}
