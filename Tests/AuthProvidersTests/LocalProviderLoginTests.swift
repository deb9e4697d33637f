import AuthCrypto
import AuthStorage
import Testing

@testable import AuthProviders

@Suite struct LocalProviderLoginTests {
  static let accounts: [LoginAccount] = [
    LoginAccount(kind: .username, text: "alice"),
    LoginAccount(kind: .username, text: "ALICE"),
    LoginAccount(kind: .email, text: "alice@example.com"),
    LoginAccount(kind: .email, text: "Alice@example.com"),
    LoginAccount(kind: .phone, text: "+8613800138000"),
  ]

  @Test(arguments: accounts)
  func logsInByUsernameEmailOrPhone(_ account: LoginAccount) async throws {
    let fixture = try LocalFixture()
    let registered = try await fixture.registerAlice()
    let issued = try await fixture.provider.login(account, password: password, profile: "default")
    #expect(issued.user == registered)
    #expect(issued.tokenType == "Bearer")
    #expect(issued.expiresAt == startTime + fixture.accessTokenTTL)
    #expect(issued.accessToken.count > 0)
    #expect(issued.refreshToken != nil)
    #expect(issued.idToken == nil && issued.providerState == nil && issued.scopes.isEmpty)
    #expect(try fixture.storedRefreshToken(issued.refreshToken) != nil)
  }

  @Test func wrongPasswordUnknownUserAndDisabledAccountAreTheSameAnswer() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    _ = try await fixture.provider.register(Registration(username: "carol"), password: password)
    try fixture.updateAccount(username: "carol") { $0.disabled = true }

    func refusal(_ kind: LoginAccount.Kind, _ text: String, _ password: String) async -> ProviderError? {
      await #expect(throws: ProviderError.self) {
        try await fixture.provider.login(LoginAccount(kind: kind, text: text), password: password, profile: "default")
      }
    }
    let wrongPassword = try #require(await refusal(.username, "alice", "not the password"))
    #expect(wrongPassword.code == .invalidCredentials)
    let others = [
      await refusal(.username, "nobody", password),
      await refusal(.email, "nobody@example.com", password),
      await refusal(.phone, "+15555550100", password),
      // The right password of a disabled account.
      await refusal(.username, "carol", password),
      // A username typed where an email was expected.
      await refusal(.email, "alice", password),
    ]
    for error in others {
      // Equal in code, log detail and upstream code: nothing tells the cases apart.
      #expect(error == wrongPassword)
    }
  }

  @Test func aPasswordIsNeitherTrimmedNorCaseFolded() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    for variant in [password + " ", " " + password, password.uppercased(), String(password.dropLast())] {
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) {
        try await fixture.login(password: variant)
      }
    }
    _ = try await fixture.login()
  }

  @Test func loginRehashesAPasswordStoredWithOtherParameters() async throws {
    let fixture = try LocalFixture()
    let weaker = PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 500))
    let user = try await fixture.provider(hasher: weaker).register(
      Registration(username: "alice", email: "alice@example.com"), password: password)
    let before = try #require(try fixture.account())
    #expect(before.passwordHash.hasPrefix("$pbkdf2-sha256$i=500$"))

    // A failed login changes nothing.
    await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong password") }
    #expect(try fixture.account() == before)

    let issued = try await fixture.login()
    #expect(issued.user.id == user.id)
    let after = try #require(try fixture.account())
    #expect(after.passwordHash.hasPrefix("$pbkdf2-sha256$i=1000$"))
    #expect(!cheapHasher.needsRehash(after.passwordHash))
    #expect(try cheapHasher.verify(password: password, encoded: after.passwordHash))
    var unchanged = after
    unchanged.passwordHash = before.passwordHash
    #expect(unchanged == before)

    // Current parameters: the next login leaves the hash alone.
    _ = try await fixture.login()
    #expect(try fixture.account()?.passwordHash == after.passwordHash)
  }

  enum AdminChange: String, CaseIterable, Sendable { case newPassword, disabled, removed }

  /// `auth-sidecar users passwd|remove` in another process lands while a login is checking the old password:
  /// the login must not mint a session for the account as it was, nor write the old password's rehash back.
  @Test(arguments: AdminChange.allCases)
  func aLoginRacingAnAccountChangeIsRefused(_ change: AdminChange) async throws {
    let fixture = try LocalFixture()
    // Stored with other parameters, so the login also wants to rehash.
    let user = try await fixture.provider(hasher: PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 500)))
      .register(Registration(username: "alice"), password: password)
    let newHash = try cheapHasher.hash(password: "a brand new password")

    let outcome = try await fixture.whileAnotherProcessWrites({ tx in
      switch change {
      case .newPassword:
        guard var account = try tx.account(id: user.id) else { return }
        account.passwordHash = newHash
        try tx.updateAccount(account)
        try tx.revokeRefreshTokens(accountID: user.id)
      case .disabled:
        guard var account = try tx.account(id: user.id) else { return }
        account.disabled = true
        try tx.updateAccount(account)
      case .removed:
        _ = try tx.deleteAccount(id: user.id)
      }
    }) {
      await Result { try await fixture.login() }
    }

    #expect(throws: ProviderError(.invalidCredentials, "local login refused")) { try outcome.get() }
    let account = try fixture.account()
    switch change {
    case .newPassword:
      #expect(account?.passwordHash == newHash)
      #expect(account?.disabled == false)
    case .disabled:
      #expect(account?.disabled == true)
      #expect(account?.passwordHash.hasPrefix("$pbkdf2-sha256$i=500$") == true)
    case .removed:
      #expect(account == nil)
    }
  }

  /// Two logins of one account check its old hash at the same time and both rehash it: the right password
  /// logs in both times, whichever writes second.
  @Test func concurrentLoginsThatBothRehashBothSucceed() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.provider(hasher: PasswordHasher(algorithm: .pbkdf2SHA256(iterations: 500)))
      .register(Registration(username: "alice", email: "alice@example.com"), password: password)
    let outcomes = try await fixture.whileAnotherProcessWrites({ _ in }) {
      async let first = Result { try await fixture.login() }
      async let second = Result { try await fixture.login("alice@example.com", kind: .email) }
      return await [first, second]
    }
    for outcome in outcomes {
      #expect(try outcome.get().user.id == user.id)
    }
    let account = try #require(try fixture.account())
    #expect(!cheapHasher.needsRehash(account.passwordHash))
    #expect(try cheapHasher.verify(password: password, encoded: account.passwordHash))
  }

  @Test func eachLoginStartsItsOwnTokenFamily() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let second = try await fixture.login(kind: .email, "alice@example.com")
    #expect(text(first.accessToken) != text(second.accessToken))
    #expect(text(first.refreshToken) != text(second.refreshToken))
    let firstRecord = try #require(try fixture.storedRefreshToken(first.refreshToken))
    let secondRecord = try #require(try fixture.storedRefreshToken(second.refreshToken))
    #expect(firstRecord.familyID != secondRecord.familyID)
    #expect(firstRecord.accountID == secondRecord.accountID)
  }
}

extension LocalFixture {
  fileprivate func login(kind: LoginAccount.Kind, _ text: String) async throws -> IssuedSession {
    try await login(text, kind: kind)
  }
}

extension Result where Failure == any Error {
  init(catching body: () async throws -> Success) async {
    do { self = .success(try await body()) } catch { self = .failure(error) }
  }
}
