import AuthCrypto
import AuthStorage
import Testing

@testable import AuthProviders

@Suite struct LoginThrottleTests {
  // MARK: - The schedule

  @Test(
    arguments: [
      (1, 0), (2, 0), (3, 0), (4, 0), (5, 1), (6, 2), (7, 4), (8, 8), (12, 128), (13, 256), (14, 300), (15, 300),
      (40, 300), (10_000, 300),
    ] as [(Int, Int64)])
  func afterFailureBlocksFromTheFifthFailureDoublingUpToFiveMinutes(failures: Int, delay: Int64) {
    let previous = failures == 1 ? nil : LoginThrottleRecord(failures: failures - 1, blockedUntil: 0)
    let next = LoginThrottle.afterFailure(previous, now: startTime * 1000)
    #expect(next.failures == failures)
    #expect(next.blockedUntil == (delay == 0 ? 0 : (startTime + delay) * 1000))
  }

  @Test func unknownIdentifiersAreCountedCaseInsensitivelyAndByKind() {
    let key = { (kind: LoginAccount.Kind, text: String) in
      LoginThrottle.key(for: LoginAccount(kind: kind, text: text), naming: nil)
    }
    #expect(key(.username, "Alice") == key(.username, "alice"))
    #expect(key(.email, "Alice@Example.com") == key(.email, "alice@example.com"))
    #expect(key(.username, "alice") != key(.email, "alice"))
    #expect(key(.username, "alice") != key(.username, "alice2"))
    #expect(key(.username, "alice").count == 32)
  }

  @Test func everyIdentifierOfAnAccountSharesItsCount() {
    let account = AccountRecord(
      id: "acct-1", username: "alice", email: "alice@example.com", phone: "+15555550100", passwordHash: "x",
      createdAt: startTime)
    let keys = [
      LoginAccount(kind: .username, text: "alice"), LoginAccount(kind: .email, text: "alice@example.com"),
      LoginAccount(kind: .phone, text: "+15555550100"),
    ].map { LoginThrottle.key(for: $0, naming: account) }
    #expect(Set(keys).count == 1)
    // And not an unknown name's count, even one spelled like the account's id.
    #expect(keys[0] != LoginThrottle.key(for: LoginAccount(kind: .username, text: "acct-1"), naming: nil))
  }

  // MARK: - Through the provider

  /// The retry-after answers once the 5 free failures are spent: each wrong attempt after a block ends doubles it.
  static let schedule: [Int64] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]

  @Test(arguments: [
    LoginAccount(kind: .username, text: "alice"),
    LoginAccount(kind: .username, text: "mallory"),
    LoginAccount(kind: .email, text: "alice@example.com"),
    LoginAccount(kind: .email, text: "nobody@example.com"),
  ])
  func knownAndUnknownIdentifiersFollowTheSameSchedule(_ account: LoginAccount) async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let attempt = { (password: String) in
      try await fixture.provider.login(account, password: password, profile: "default")
    }
    for _ in 1...LoginThrottle.freeFailures {
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) { try await attempt("wrong") }
    }
    for delay in Self.schedule {
      let blocked = await #expect(throws: ProviderError.self) { try await attempt("wrong") }
      #expect(blocked?.code == .rateLimited(retryAfter: delay))
      if delay > 1 {
        fixture.clock.advance(by: delay - 1)
        let stillBlocked = await #expect(throws: ProviderError.self) { try await attempt("wrong") }
        #expect(stillBlocked?.code == .rateLimited(retryAfter: 1))
      }
      // The block ends exactly `delay` seconds after it began; the next wrong password is checked and counted.
      fixture.clock.advance(by: 1)
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) { try await attempt("wrong") }
    }
  }

  @Test func aBlockedAttemptIsRefusedWithoutCheckingThePassword() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let alice = LoginAccount(kind: .username, text: "alice")
    for _ in 1...5 { await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") } }
    let record = try #require(try fixture.throttle(alice))
    #expect(record == LoginThrottleRecord(failures: 5, blockedUntil: (startTime + 1) * 1000))

    // Even the right password is refused while blocked.
    let refused = await #expect(throws: ProviderError.self) { try await fixture.login() }
    #expect(refused?.code == .rateLimited(retryAfter: 1))

    // A stored hash the hasher cannot even parse: any verification would throw a CryptoError.
    let good = try #require(try fixture.account()).passwordHash
    try fixture.updateAccount { $0.passwordHash = "not a password hash" }
    for candidate in [password, "wrong", ""] {
      let answer = await #expect(throws: ProviderError.self) { try await fixture.login(password: candidate) }
      #expect(answer?.code == .rateLimited(retryAfter: 1))
    }
    // Blocked attempts do not count as failures.
    #expect(try fixture.throttle(alice) == record)

    // The control: once the block ends, the same attempt does reach the hasher (and counts: the block grows).
    fixture.clock.advance(by: 1)
    await #expect(throws: CryptoError.self) { try await fixture.login() }
    #expect(try fixture.throttle(alice) == LoginThrottleRecord(failures: 6, blockedUntil: (startTime + 1 + 2) * 1000))
    try fixture.updateAccount { $0.passwordHash = good }
    fixture.clock.advance(by: 2)
    _ = try await fixture.login()
    #expect(try fixture.throttle(alice) == nil)
  }

  @Test func aSuccessfulLoginResetsTheCount() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let alice = LoginAccount(kind: .username, text: "alice")
    for _ in 1...4 { await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") } }
    #expect(try fixture.throttle(alice)?.failures == 4)
    _ = try await fixture.login()
    #expect(try fixture.throttle(alice) == nil)
    // Four more failures are free again, and the fifth is still answered (then blocks).
    for _ in 1...5 {
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) {
        try await fixture.login(password: "wrong")
      }
    }
    let blocked = await #expect(throws: ProviderError.self) { try await fixture.login() }
    #expect(blocked?.code == .rateLimited(retryAfter: 1))
  }

  @Test func aSuccessAfterTheBlockEndsResetsTheSchedule() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    for _ in 1...6 {
      _ = await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") }
      fixture.clock.advance(by: 10)
    }
    // Six failures: the next wrong one would block for 4 s. The right password resets instead.
    _ = try await fixture.login()
    #expect(try fixture.throttle(LoginAccount(kind: .username, text: "alice")) == nil)
    for _ in 1...5 { await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") } }
    let blocked = await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") }
    #expect(blocked?.code == .rateLimited(retryAfter: 1))
  }

  /// Guesses sent all at once must not slip past the block because none of them had failed yet when the
  /// others were let through.
  @Test func concurrentGuessesAreThrottledLikeSequentialOnes() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let codes = await withTaskGroup(of: ProviderError.Code?.self) { group in
      for index in 0..<20 {
        group.addTask {
          do {
            _ = try await fixture.login(password: "guess \(index)")
            return nil
          } catch {
            return (error as? ProviderError)?.code
          }
        }
      }
      var codes: [ProviderError.Code?] = []
      for await code in group { codes.append(code) }
      return codes
    }
    #expect(codes.filter { $0 == .invalidCredentials }.count == LoginThrottle.freeFailures)
    #expect(codes.filter { $0 == .rateLimited(retryAfter: 1) }.count == 20 - LoginThrottle.freeFailures)
    #expect(try fixture.throttle(LoginAccount(kind: .username, text: "alice"))?.failures == LoginThrottle.freeFailures)
  }

  @Test func theThrottleIsPerIdentifier() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    _ = try await fixture.provider.register(Registration(username: "bob"), password: password)
    for _ in 1...5 { await #expect(throws: ProviderError.self) { try await fixture.login(password: "wrong") } }
    let blocked = await #expect(throws: ProviderError.self) { try await fixture.login() }
    #expect(blocked?.code == .rateLimited(retryAfter: 1))
    // Another user, and a different case of the blocked name, are judged by their own identifiers.
    _ = try await fixture.login("bob")
    let sameName = await #expect(throws: ProviderError.self) { try await fixture.login("ALICE") }
    #expect(sameName?.code == .rateLimited(retryAfter: 1))
  }

  /// Switching between the username and the email of one account buys no extra guesses.
  @Test func guessesByUsernameAndByEmailShareOneCount() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let byName = LoginAccount(kind: .username, text: "alice")
    let byEmail = LoginAccount(kind: .email, text: "alice@example.com")
    for index in 1...LoginThrottle.freeFailures {
      let account = index.isMultiple(of: 2) ? byEmail : byName
      await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) {
        try await fixture.provider.login(account, password: "wrong", profile: "default")
      }
    }
    for account in [byName, byEmail] {
      let blocked = await #expect(throws: ProviderError.self) {
        try await fixture.provider.login(account, password: "wrong", profile: "default")
      }
      #expect(blocked?.code == .rateLimited(retryAfter: 1))
    }
    #expect(try fixture.throttle(byEmail)?.failures == LoginThrottle.freeFailures)
  }
}
