import Testing

@testable import AuthConfig

@Suite struct LoginFlowTests {
  @Test func theWireNamesAreTheCaseNames() {
    #expect(LoginFlow.allCases.map(\.rawValue) == ["password", "device", "authorizationCode"])
    #expect(LoginFlow.allCases.map(\.description) == ["password", "device", "authorizationCode"])
    #expect(LoginFlow(rawValue: "browser") == nil)
    #expect(LoginFlow(rawValue: "Device") == nil)
  }

  @Test func everyFlowButPasswordIsInteractive() {
    #expect(LoginFlow.interactive == LoginFlow.allCases.filter(\.isInteractive))
    #expect(!LoginFlow.password.isInteractive)
  }

  @Test func anOAuth2ProfileListsPasswordOnlyWhenAllowed() {
    let oauth2 = OAuth2ProviderConfig(issuer: "https://id.example.com", clientID: "app", flows: [.authorizationCode])
    #expect(ProviderConfig.oauth2(oauth2).loginFlows == [.authorizationCode])
    let withPassword = OAuth2ProviderConfig(
      issuer: "https://id.example.com", clientID: "app", allowPasswordGrant: true, flows: [])
    #expect(ProviderConfig.oauth2(withPassword).loginFlows == [.password])
  }
}
