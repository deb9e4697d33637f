import AuthCrypto
import AuthJSON
import AuthStorage
import Testing

@testable import AuthProviders

@Suite struct LocalProviderRegistrationTests {
  @Test func registerReturnsTheUserWithAUUIDShapedID() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.registerAlice()
    #expect(user.id.wholeMatch(of: #/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/#) != nil)
    #expect(user.username == "alice")
    #expect(user.email == "alice@example.com")
    #expect(user.phone == "+8613800138000")
    #expect(user.displayName == "Alice Liddell")
    #expect(user.extra.count == 0)
    #expect(user.json.keys == ["id", "username", "email", "phone", "displayName"])
    #expect(user.json["id"] == .string(user.id))
  }

  @Test func registerStoresAKDFHashNeverThePassword() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.registerAlice()
    let account = try #require(try fixture.account())
    #expect(account.id == user.id)
    #expect(account.createdAt == startTime)
    #expect(!account.disabled)
    #expect(account.passwordHash.hasPrefix("$pbkdf2-sha256$i=1000$"))
    #expect(!account.passwordHash.contains(password))
    #expect(try cheapHasher.verify(password: password, encoded: account.passwordHash))
  }

  @Test func optionalFieldsMayBeAbsentOnManyAccounts() async throws {
    let fixture = try LocalFixture()
    let first = try await fixture.provider.register(Registration(username: "first"), password: password)
    let second = try await fixture.provider.register(Registration(username: "second"), password: password)
    #expect(first.id != second.id)
    #expect(first.email == nil && first.phone == nil && first.displayName == nil)
    #expect(first.json.keys == ["id", "username"])
    #expect(try fixture.store.read { try $0.accounts() }.map(\.username) == ["first", "second"])
  }

  static let duplicates: [(Registration, String)] = [
    (Registration(username: "alice"), "username"),
    (Registration(username: "ALICE"), "username"),
    (Registration(username: "Alice", email: "other@example.com"), "username"),
    (Registration(username: "bob", email: "alice@example.com"), "email"),
    (Registration(username: "bob", email: "ALICE@EXAMPLE.COM"), "email"),
    (Registration(username: "bob", phone: "+8613800138000"), "phone"),
  ]

  @Test(arguments: duplicates)
  func aTakenUsernameEmailOrPhoneIsAlreadyExists(_ registration: Registration, field: String) async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    await #expect(throws: ProviderError(.alreadyExists(field: field), "account exists")) {
      try await fixture.provider.register(registration, password: "another password")
    }
    let accounts = try fixture.store.read { try $0.accounts() }
    #expect(accounts.count == 1)
    // The existing account is untouched: its password still logs in.
    _ = try await fixture.login()
  }

  @Test(arguments: [
    ([UInt8](repeating: 0x00, count: 16), "00000000-0000-4000-8000-000000000000"),
    ([UInt8](repeating: 0xFF, count: 16), "ffffffff-ffff-4fff-bfff-ffffffffffff"),
    (Array(0..<16), "00010203-0405-4607-8809-0a0b0c0d0e0f"),
  ])
  func accountIDsHaveTheVersion4Layout(_ bytes: [UInt8], expected: String) throws {
    #expect(try LocalProvider.accountID(bytes) == expected)
  }
}
