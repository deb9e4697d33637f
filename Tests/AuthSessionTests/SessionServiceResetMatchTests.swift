import AuthConfig
import AuthProviders
import Testing

@testable import AuthSession

/// Which stored sessions a password reset ends: the account's, found by id or — since a remote reset API rarely
/// answers with the user's id — by the identity the user typed, and only on profiles that can know that account.
@Suite struct SessionServiceResetMatchTests {
  static let stored = UserInfo(id: "u9001", username: "+8613900139001", phone: "+8613900139001")

  @Test func theResetAccountIsFoundByIdOrByTheIdentityTyped() {
    #expect(SessionService.isAccount(Self.stored, UserInfo(id: "u9001", username: "someone else")))
    #expect(SessionService.isAccount(Self.stored, UserInfo(id: "+8613900139001", username: "+8613900139001")))
    #expect(SessionService.isAccount(Self.stored, UserInfo(id: "x", username: "y", phone: "+8613900139001")))
    let mail = UserInfo(id: "7", username: "alice", email: "alice@example.com")
    #expect(SessionService.isAccount(mail, UserInfo(id: "a@x", username: "a@x", email: "alice@example.com")))
    #expect(!SessionService.isAccount(Self.stored, UserInfo(id: "u9002", username: "+8613900139002")))
    #expect(!SessionService.isAccount(mail, UserInfo(id: "8", username: "bob")), "absent fields match nothing")
  }

  @Test func onlyProfilesThatCanKnowTheAccountShareIt() {
    func rest(_ url: String) -> ProviderConfig {
      .rest(
        RESTProviderConfig(
          baseURL: url, login: RESTProviderConfig.Endpoint(path: "/login"),
          response: RESTProviderConfig.ResponseFields(accessToken: RESTProviderConfig.FieldPath(["token"]))))
    }
    let local = ProviderConfig.local(LocalProviderConfig())
    let short = ProviderConfig.local(LocalProviderConfig(accessTokenTTLSeconds: 60))
    #expect(SessionService.sharesAccounts(local, short), "local profiles share the store's accounts")
    #expect(SessionService.sharesAccounts(rest("https://a.example"), rest("https://a.example")))
    #expect(!SessionService.sharesAccounts(rest("https://a.example"), rest("https://b.example")))
    #expect(!SessionService.sharesAccounts(local, rest("https://a.example")))
  }
}
