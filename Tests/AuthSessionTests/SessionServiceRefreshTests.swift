import AuthConfig
import AuthCrypto
import AuthJSON
import AuthProviders
import AuthStorage
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(1))) struct SessionServiceRefreshTests {
  /// Access tokens live 900 s and the margin is 60 s: a refresh is due from 840 s after login.
  @Test(arguments: [(0, false), (839, false), (840, true), (900, true), (5000, true)] as [(Int64, Bool)])
  func getUserRefreshesTransparentlyInsideTheMargin(elapsed: Int64, refreshes: Bool) async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let login = try await service.login()
    fixture.clock.advance(by: elapsed)
    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(!stale)
    #expect(snapshot.username == "alice")
    #expect((snapshot.accessToken != login.accessToken) == refreshes)
    #expect(try fixture.refreshTokenCounts() == (refreshes ? (2, 1) : (1, 0)))
    let stored = try #require(try fixture.session())
    #expect(text(stored.accessToken) == snapshot.accessToken)
    #expect(stored.generation == 1)
    if refreshes {
      #expect(snapshot.expiresAt == startTime + elapsed + 900)
      #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .refreshed)])
    } else {
      #expect(snapshot.expiresAt == startTime + 900)
      #expect(fixture.changes == [Change("default", .loggedIn)])
    }
  }

  @Test func refreshTokenWithoutForceOutsideTheMarginKeepsTheTokens() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let login = try await service.login()
    let before = try fixture.session()
    fixture.clock.advance(by: 600)
    let snapshot = try await service.refreshToken(profile: "default", force: false)
    #expect(snapshot.accessToken == login.accessToken)
    #expect(snapshot.expiresAt == login.expiresAt)
    #expect(text(try fixture.session()?.refreshToken) == text(before?.refreshToken))
    #expect(try fixture.refreshTokenCounts() == (1, 0))
    #expect(fixture.changes == [Change("default", .loggedIn)])
  }

  @Test func refreshTokenWithForceRotatesAndStoresBeforeAnswering() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let login = try await service.login()
    let before = try fixture.session()
    fixture.clock.advance(by: 600)
    let snapshot = try await service.refreshToken(profile: "default", force: true)
    #expect(snapshot.accessToken != login.accessToken)
    #expect(snapshot.expiresAt == startTime + 600 + 900)
    let stored = try #require(try fixture.session())
    #expect(text(stored.accessToken) == snapshot.accessToken)
    #expect(text(stored.refreshToken) != text(before?.refreshToken))
    #expect(try fixture.refreshToken(of: before)?.usedAt == startTime + 600)
    #expect(try fixture.refreshToken(of: stored)?.usedAt == nil)
    #expect(stored.generation == 1)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .refreshed)])
  }

  @Test func concurrentGetUsersOnAnExpiredTokenRotateOnce() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let login = try await service.login()
    fixture.clock.advance(by: 1000)
    let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
      for _ in 0..<100 {
        group.addTask { try await service.getUser(profile: "default", fetchFromServer: false).0.accessToken }
      }
      var tokens: [String?] = []
      for try await token in group { tokens.append(token) }
      return tokens
    }
    #expect(tokens.count == 100)
    #expect(Set(tokens).count == 1)
    #expect(tokens.first != login.accessToken)
    #expect(try fixture.refreshTokenCounts() == (2, 1))
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .refreshed)])
  }

  @Test func servicesSharingAStoreAcrossProcessesRotateOnce() async throws {
    let fixture = try await SessionFixture()
    // A second "process": its own Store on the same directory, its own provider and randomness.
    let otherStore = try openStore(fixture.directory)
    let otherStores = LazyStore { otherStore }
    let otherLocal = LocalProvider(
      stores: otherStores, clock: fixture.clock, random: SeededRandomSource(seed: 99), hasher: cheapHasher,
      accessTokenTTLSeconds: 900, refreshTokenTTLDays: 30)
    let services = [
      fixture.service(),
      fixture.service([(ProfileConfig(name: "default"), otherLocal)], stores: otherStores),
    ]
    _ = try await services[0].login()
    fixture.clock.advance(by: 900)
    let tokens = try await withThrowingTaskGroup(of: String?.self) { group in
      for index in 0..<40 {
        let service = services[index % 2]
        group.addTask { try await service.refreshToken(profile: "default", force: false).accessToken }
      }
      var tokens: Set<String?> = []
      for try await token in group { tokens.insert(token) }
      return tokens
    }
    #expect(tokens.count == 1)
    #expect(try fixture.refreshTokenCounts() == (2, 1))
    #expect(fixture.changes.filter { $0.state == .refreshed }.count == 1)
  }

  @Test func aRefreshWaitingForAnotherProcesssRefreshAdoptsItsResult() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let gated = TestProvider(fixture.local, refreshGate: gate)
    let first = fixture.service([(ProfileConfig(name: "default"), gated)])
    let otherStore = try openStore(fixture.directory)
    let otherStores = LazyStore { otherStore }
    let otherLocal = LocalProvider(
      stores: otherStores, clock: fixture.clock, random: SeededRandomSource(seed: 99), hasher: cheapHasher,
      accessTokenTTLSeconds: 900, refreshTokenTTLDays: 30)
    let second = fixture.service([(ProfileConfig(name: "default"), otherLocal)], stores: otherStores)
    _ = try await first.login()
    fixture.clock.advance(by: 900)

    // The first process refreshes and holds the profile lock until the gate opens.
    let running = Task { try await first.getUser(profile: "default", fetchFromServer: false) }
    await gated.refreshStarted.wait()
    // The second process, even forcing, reads the session and then waits for the lock…
    let waiting = Task { try await second.refreshToken(profile: "default", force: true) }
    try await Task.sleep(for: .milliseconds(300))
    gate.fire()
    // …and takes the first one's result instead of spending the rotated refresh token again.
    let (adopted, forced) = (try await running.value.0, try await waiting.value)
    #expect(forced.accessToken == adopted.accessToken)
    #expect(text(try fixture.session()?.accessToken) == adopted.accessToken)
    #expect(try fixture.refreshTokenCounts() == (2, 1))
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .refreshed)])
  }

  // MARK: - Rejected and failed refreshes

  enum Rejection: String, CaseIterable, Sendable {
    case refreshTokenExpired, accountDeleted, accountDisabled, familyRevoked
  }

  @Test(arguments: Rejection.allCases)
  func aRejectedRefreshClearsTheSessionAndNotifiesExpired(_ rejection: Rejection) async throws {
    let fixture = try await SessionFixture(refreshTokenTTLDays: 1)
    let service = fixture.service()
    _ = try await service.login()
    switch rejection {
    case .refreshTokenExpired:
      fixture.clock.advance(by: 86_400)
    case .accountDeleted:
      try fixture.store.write { tx in _ = try tx.deleteAccount(id: tx.account(username: "alice")?.id ?? "") }
    case .accountDisabled:
      try fixture.updateAccount("alice") { $0.disabled = true }
    case .familyRevoked:
      try await fixture.local.revoke(try #require(try fixture.storedSession()))
    }
    fixture.clock.advance(by: 900)

    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
    // Logged out now, with the account still remembered for the login form.
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: "alice"))) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
  }

  @Test func aForcedRefreshThatIsRejectedAlsoExpires() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    try fixture.updateAccount("alice") { $0.disabled = true }
    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.refreshToken(profile: "default", force: true)
    }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
  }

  @Test func aNetworkFailureKeepsTheSessionAndAnswersStale() async throws {
    let fixture = try await SessionFixture()
    let offline = TestProvider(fixture.local, networkFailure: ProviderError(.networkUnavailable, "test: offline"))
    let service = fixture.service([(ProfileConfig(name: "default"), offline)])
    let login = try await service.login()
    fixture.clock.advance(by: 1000)

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(stale)
    #expect(snapshot.accessToken == login.accessToken)
    let (fetched, fetchedStale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(fetchedStale)
    #expect(fetched.user == login.user)
    await #expect(throws: ProviderError(.networkUnavailable, "test: offline")) {
      try await service.refreshToken(profile: "default", force: true)
    }
    #expect(text(try fixture.session()?.accessToken) == login.accessToken)
    #expect(try fixture.refreshTokenCounts() == (1, 0))
    #expect(fixture.changes == [Change("default", .loggedIn)])
  }

  @Test func aFetchThatFailsWhileTheTokenIsFreshIsStaleToo() async throws {
    let fixture = try await SessionFixture()
    let offline = TestProvider(fixture.local, networkFailure: ProviderError(.timeout, "test: slow"))
    let service = fixture.service([(ProfileConfig(name: "default"), offline)])
    let login = try await service.login()
    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(stale)
    #expect(snapshot.user == login.user && snapshot.accessToken == login.accessToken)
  }

  // MARK: - getUser {refresh: true}

  @Test func getUserFromTheServerUpdatesTheCachedUserButNotTheTokens() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let login = try await service.login()
    let before = try #require(try fixture.session())
    try fixture.updateAccount("alice") {
      $0.displayName = "Alice Liddell"
      $0.email = "alice@wonderland.example"
    }
    fixture.clock.advance(by: 10)

    // Without refresh: the cached user.
    #expect(try await service.getUser(profile: "default", fetchFromServer: false).0.user == login.user)

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(!stale)
    #expect(snapshot.user["displayName"] == "Alice Liddell")
    #expect(snapshot.user["email"] == "alice@wonderland.example")
    #expect(snapshot.user["id"] == login.user["id"])
    #expect(snapshot.session == login.session)

    let after = try #require(try fixture.session())
    #expect(text(after.accessToken) == text(before.accessToken))
    #expect(text(after.refreshToken) == text(before.refreshToken))
    #expect(after.expiresAt == before.expiresAt && after.generation == before.generation)
    #expect(after.updatedAt == startTime + 10)
    #expect(try fixture.refreshTokenCounts() == (1, 0))
    // The cache now holds the new user.
    #expect(try await service.getUser(profile: "default", fetchFromServer: false).0.user == snapshot.user)
    #expect(fixture.changes == [Change("default", .loggedIn)])
  }

  @Test func getUserFromTheServerForARemovedAccountExpiresTheSession() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    try fixture.store.write { tx in _ = try tx.deleteAccount(id: tx.account(username: "alice")?.id ?? "") }
    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.getUser(profile: "default", fetchFromServer: true)
    }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
  }

  @Test func aFetchedProviderStateIsStoredButNotTheTokens() async throws {
    let fixture = try await SessionFixture()
    let server = TestProvider(fixture.local, stateAfterFetch: Array("rotated cookie jar".utf8))
    let service = fixture.service([(ProfileConfig(name: "default"), server)])
    _ = try await service.login()
    let before = try #require(try fixture.session())
    #expect(before.providerState == nil)

    _ = try await service.getUser(profile: "default", fetchFromServer: true)
    let after = try #require(try fixture.session())
    #expect(after.providerState == Array("rotated cookie jar".utf8))
    #expect(text(after.accessToken) == text(before.accessToken))
    #expect(text(after.refreshToken) == text(before.refreshToken))
    #expect(after.generation == before.generation)
  }

  /// The stored user is decoded in one place; bytes that do not read back as a user end the session.
  @Test func anUnreadableStoredUserEndsTheSession() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    let generation = try #require(try fixture.session()).generation
    _ = try fixture.store.write {
      try $0.updateCachedUser(profile: "default", generation: generation, userJSON: Array("{}".utf8), at: startTime)
    }
    let statuses = try await service.status()
    #expect(statuses.map(\.loggedIn) == [true] && statuses.map(\.username) == [nil])

    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
  }

  // MARK: - An access token refused before its expiry

  @Test func aRevokedAccessTokenIsRefreshedOnceAndTheFetchRetried() async throws {
    let fixture = try await SessionFixture()
    let server = TestProvider(fixture.local)
    let service = fixture.service([(ProfileConfig(name: "default"), server)])
    let login = try await service.login()
    let refused = try #require(try fixture.session()).accessToken.withUnsafeBytes { Array($0) }
    server.revokedAccessTokens.withLock { $0.append(refused) }

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(!stale)
    #expect(snapshot.user == login.user)
    #expect(snapshot.accessToken != login.accessToken)
    #expect(server.refreshCount.withLock { $0 } == 1)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .refreshed)])
  }

  @Test func aTokenStoredByAnotherProcessIsAdoptedInsteadOfRefreshingAgain() async throws {
    let fixture = try await SessionFixture()
    // Another process sharing the store rotates the tokens while this one's fetch is on the wire; the server
    // revokes the old access token when it answers that refresh, so this fetch is refused.
    let other = fixture.service(
      [(ProfileConfig(name: "default"), fixture.local)], stores: LazyStore { try openStore(fixture.directory) })
    let server = TestProvider(fixture.local) { current in
      _ = try await other.refreshToken(profile: "default", force: true)
      return [current.accessToken.withUnsafeBytes { Array($0) }]
    }
    let service = fixture.service([(ProfileConfig(name: "default"), server)])
    _ = try await service.login()

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(!stale)
    #expect(snapshot.accessToken == text(try fixture.session()?.accessToken))
    // Adopted, not refreshed again: one rotation in all, by the other process.
    #expect(server.refreshCount.withLock { $0 } == 0)
    #expect(try fixture.refreshTokenCounts() == (2, 1))
  }

  @Test func aRefusedTokenWhoseRefreshIsRefusedTooExpiresTheSession() async throws {
    let fixture = try await SessionFixture()
    let server = TestProvider(fixture.local)
    let service = fixture.service([(ProfileConfig(name: "default"), server)])
    _ = try await service.login()
    let record = try #require(try fixture.storedSession())
    server.revokedAccessTokens.withLock { $0.append(record.accessToken.withUnsafeBytes { Array($0) }) }
    // The server ended the whole session: the refresh token is dead too.
    _ = try await fixture.local.revoke(record)

    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.getUser(profile: "default", fetchFromServer: true)
    }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
  }

  /// A session the provider cannot refresh (a rest token kept without a refresh endpoint) ends at the first
  /// refusal: one request to the server, no refresh, no second try.
  @Test func aRefusedTokenThatCannotBeRefreshedEndsTheSessionAtOnce() async throws {
    let fixture = try await SessionFixture()
    let server = TestProvider(fixture.local, refreshable: false)
    let service = fixture.service([(ProfileConfig(name: "default"), server)])
    _ = try await service.login()
    let refused = try #require(try fixture.session()).accessToken.withUnsafeBytes { Array($0) }
    server.revokedAccessTokens.withLock { $0.append(refused) }

    await #expect(throws: SessionError(.sessionExpired)) {
      try await service.getUser(profile: "default", fetchFromServer: true)
    }
    #expect(server.fetchCount.withLock { $0 } == 1)
    #expect(server.refreshCount.withLock { $0 } == 0)
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .expired)])
  }
}
