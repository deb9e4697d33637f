import AuthConfig
import AuthProviders
import AuthStorage
import Testing

@testable import AuthSession

@Suite(.timeLimit(.minutes(1))) struct SessionServiceLogoutTests {
  @Test func logoutRevokesClearsAndNotifiesOnce() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    let before = try #require(try fixture.session())

    #expect(try await service.logout(profile: "default"))
    #expect(try fixture.session() == nil)
    #expect(try fixture.refreshToken(of: before)?.revoked == true)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedOut)])

    // Idempotent: nothing to revoke, nothing to announce.
    #expect(try await service.logout(profile: "default") == false)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedOut)])
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: "alice"))) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
  }

  @Test func logoutWhenNeverLoggedInIsQuiet() async throws {
    let fixture = try await SessionFixture()
    #expect(try await fixture.service().logout(profile: "default") == false)
    #expect(fixture.changes.isEmpty)
  }

  @Test(arguments: [TestProvider.Revocation.fails, .hangs])
  func logoutClearsLocallyWhenTheProviderCannotRevoke(_ revocation: TestProvider.Revocation) async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service(
      [(ProfileConfig(name: "default"), TestProvider(fixture.local, revocation: revocation))],
      revokeTimeout: .milliseconds(100))
    _ = try await service.login()
    let before = try #require(try fixture.session())
    let started = ContinuousClock.now
    #expect(try await service.logout(profile: "default") == false)
    #expect(ContinuousClock.now - started < .seconds(5))
    #expect(try fixture.session() == nil)
    #expect(try fixture.refreshToken(of: before)?.revoked == false)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedOut)])
  }

  // MARK: - Races with a refresh in flight

  /// The provider could not revoke, so the refresh it was already running succeeds at the provider; the
  /// session's generation moved on, so the result is thrown away and the rotation rolled back.
  @Test func aRefreshFinishingAfterALogoutIsDiscarded() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let provider = TestProvider(fixture.local, refreshGate: gate, revocation: .fails)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    _ = try await service.login()
    let before = try #require(try fixture.session())
    fixture.clock.advance(by: 900)

    let pending = Task { try await service.getUser(profile: "default", fetchFromServer: false) }
    await provider.refreshStarted.wait()
    #expect(try await service.logout(profile: "default") == false)
    gate.fire()
    let outcome = await pending.result

    #expect(throws: SessionError(.notLoggedIn(lastAccount: "alice"))) { try outcome.get() }
    #expect(try fixture.session() == nil)
    // Rolled back with the commit: the old token was not spent, no new one exists.
    #expect(try fixture.refreshToken(of: before)?.usedAt == nil)
    #expect(try fixture.refreshTokenCounts() == (1, 0))
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedOut)])
  }

  /// The provider revoked the family, so the refresh in flight is refused; the session is already gone, so
  /// nothing more is cleared or announced.
  @Test func aRefreshRefusedAfterALogoutDoesNotAnnounceAnExpiry() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let provider = TestProvider(fixture.local, refreshGate: gate)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    _ = try await service.login()
    fixture.clock.advance(by: 900)

    let pending = Task { try await service.refreshToken(profile: "default", force: false) }
    await provider.refreshStarted.wait()
    #expect(try await service.logout(profile: "default"))
    gate.fire()
    let outcome = await pending.result

    #expect(throws: SessionError.self) { try outcome.get() }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedOut)])
  }

  /// Alice's expired session starts a refresh that waits at `provider.refreshGate`; Bob logs in meanwhile, which
  /// replaces her session and revokes it in the background; then `beforeTheRefresh` runs and the gate opens.
  /// - Returns: Alice's session as stored, Bob's login, and what the refresh's caller (a `getUser`) got.
  private func aliceRefreshesWhileBobLogsIn(
    _ fixture: SessionFixture, _ provider: TestProvider,
    beforeTheRefresh: (_ alice: SessionRecord) async throws -> Void = { _ in }
  ) async throws -> (alice: SessionRecord, bob: SessionSnapshot, got: SessionSnapshot, stale: Bool) {
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    _ = try await service.login()
    let alice = try #require(try fixture.session())
    fixture.clock.advance(by: 900)

    let pending = Task { try await service.getUser(profile: "default", fetchFromServer: false) }
    await provider.refreshStarted.wait()
    let bob = try await service.login(LoginAccount(kind: .username, text: "bob"))
    try await beforeTheRefresh(alice)
    provider.refreshGate?.fire()
    let (got, stale) = try await pending.value

    // Either way, the refresh's caller gets the new login's session, and the store keeps it.
    #expect(!stale)
    #expect(got.username == "bob")
    #expect(got.accessToken == bob.accessToken)
    let stored = try #require(try fixture.session())
    #expect(stored.generation == 2)
    #expect(text(stored.accessToken) == bob.accessToken)
    // Nothing announced the new session as expired.
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedIn)])
    return (alice, bob, got, stale)
  }

  /// The refresh spends Alice's refresh token before the new login's background revocation of her session runs.
  @Test func aLoginDuringAPendingRefreshWins() async throws {
    let fixture = try await SessionFixture()
    let revocation = Signal()
    let provider = TestProvider(fixture.local, refreshGate: Signal(), revokeGate: revocation)
    let alice = try await aliceRefreshesWhileBobLogsIn(fixture, provider).alice

    // Alice's rotation was rolled back with the refused commit.
    #expect(try fixture.refreshToken(of: alice)?.usedAt == nil)
    #expect(try fixture.refreshTokenCounts() == (2, 0))
    // The held revocation ends Alice's family now; nothing of this test keeps running after it.
    revocation.fire()
    try await provider.waitForRevocationToEnd()
    #expect(try fixture.refreshToken(of: alice)?.revoked == true)
  }

  /// The other order: the new login's revocation of Alice's session reaches the provider before the pending
  /// refresh spends her refresh token, which the provider then refuses. The session did not expire: it was
  /// replaced, and the refresh's caller gets the new one.
  @Test func aLoginWhoseRevocationBeatsAPendingRefreshStillWins() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, refreshGate: Signal())
    _ = try await aliceRefreshesWhileBobLogsIn(fixture, provider) { alice in
      try await provider.waitForRevocationToEnd()
      #expect(try fixture.refreshToken(of: alice)?.revoked == true)
    }
    #expect(provider.refreshCount.withLock { $0 } == 1)
  }
}
