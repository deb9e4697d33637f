import AuthCrypto
import AuthJSON
import AuthStorage
import Testing

@testable import AuthProviders

@Suite struct LocalProviderUserTests {
  @Test func fetchUserReturnsTheAccountAsItIsNow() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.registerAlice()
    let issued = try await fixture.login()
    try fixture.updateAccount {
      $0.displayName = "Alice P. Liddell"
      $0.email = "alice@wonderland.example"
      $0.phone = nil
    }
    let fetched = try await fixture.provider.fetchUser(issued).user
    #expect(
      fetched
        == UserInfo(id: user.id, username: "alice", email: "alice@wonderland.example", displayName: "Alice P. Liddell"))
  }

  @Test func fetchUserRejectsARemovedOrDisabledAccount() async throws {
    let fixture = try LocalFixture()
    let alice = try await fixture.registerAlice()
    let bob = try await fixture.provider.register(Registration(username: "bob"), password: password)
    let aliceSession = try await fixture.login()
    let bobSession = try await fixture.login("bob")
    try fixture.store.write { _ = try $0.deleteAccount(id: alice.id) }
    try fixture.updateAccount(username: "bob") { $0.disabled = true }
    for record in [aliceSession, bobSession] {
      let error = await #expect(throws: ProviderError.self) { try await fixture.provider.fetchUser(record) }
      #expect(error?.code == .sessionRejected)
    }
    _ = bob
  }
}
