import AuthCrypto
import AuthStorage
import Testing

@testable import AuthProviders

/// Identifiers and passwords that look the same are the same, whatever keyboard typed them.
@Suite struct LocalNormalizationTests {
  static let composedPassword = "m\u{FC}nchen ist sch\u{F6}n"
  static let decomposedPassword = "mu\u{308}nchen ist scho\u{308}n"

  @Test func aPasswordLogsInWhicheverWayItsAccentsWereTyped() async throws {
    let fixture = try LocalFixture()
    _ = try await fixture.provider.register(Registration(username: "alice"), password: Self.decomposedPassword)
    _ = try await fixture.login(password: Self.composedPassword)
    _ = try await fixture.login(password: Self.decomposedPassword)
  }

  /// NFKC, not just NFC: a full-width password from an East Asian input method is its ASCII twin.
  @Test func aFullWidthPasswordIsItsASCIITwin() async throws {
    let fixture = try LocalFixture()
    _ = try await fixture.provider.register(Registration(username: "alice"), password: "\u{FF43}orrect horse")
    _ = try await fixture.login(password: "correct horse")
  }

  /// A hash made before passwords were normalized holds the password as typed: it still verifies, and that login
  /// replaces it with the hash of the normalized password.
  @Test func aHashOfThePasswordAsTypedStillVerifiesAndIsReplaced() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let legacy = try cheapHasher.hash(password: Self.decomposedPassword)
    try fixture.updateAccount { $0.passwordHash = legacy }
    await #expect(throws: ProviderError.self) { try await fixture.login(password: Self.composedPassword) }
    _ = try await fixture.login(password: Self.decomposedPassword)
    #expect(try fixture.account()?.passwordHash != legacy)
    _ = try await fixture.login(password: Self.composedPassword)
  }

  @Test func aUsernameLogsInWhicheverWayItWasTyped() async throws {
    let fixture = try LocalFixture()
    _ = try await fixture.provider.register(Registration(username: "J\u{F6}rg"), password: password)
    _ = try await fixture.login("jo\u{308}rg")
    await #expect(throws: ProviderError(.alreadyExists(field: "username"), "account exists")) {
      try await fixture.provider.register(Registration(username: "JO\u{308}RG"), password: password)
    }
  }

  /// Folded the way the account lookup folds: otherwise throttling `über` against `Über` tells which one exists.
  @Test func unknownNamesShareTheThrottleKeyOfTheirCanonicalForm() {
    let key = { (text: String) in LoginThrottle.key(for: LoginAccount(kind: .username, text: text), naming: nil) }
    #expect(key("\u{FC}ber") == key("\u{DC}ber"))
    #expect(key("\u{FC}ber") == key("u\u{308}ber"))
    #expect(key("\u{FC}ber") != key("uber"))
  }
}
