import AuthConfig
import AuthProviders
import Glibc
import Testing

@testable import AuthSession
@testable import AuthStorage

/// A login whose provider reports its tokens before its last request, which fetches the user: the tokens are
/// stored while that request is out, the user when it arrives.
@Suite struct SessionServiceEarlyTokensTests {
  /// Polls `condition` (a background step of the service) for up to five seconds.
  private func eventually(_ what: Comment, _ condition: () throws -> Bool) async throws {
    for _ in 0..<5_000 {
      if try condition() { return }
      try await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("never happened: \(what)")
  }

  /// Starts a login whose user request waits at `gate`, and returns once its tokens are stored.
  private func loginHeldAtItsUserRequest(_ fixture: SessionFixture, gate: Signal) async throws
    -> Task<SessionSnapshot, any Error>
  {
    let provider = TestProvider(fixture.local, userFetchGate: gate)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let login = Task { try await service.login() }
    await provider.userFetchStarted.wait()
    try await eventually("the tokens stored") { try fixture.session() != nil }
    return login
  }

  @Test func theTokensAreStoredWhileTheUserIsFetched() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let login = try await loginHeldAtItsUserRequest(fixture, gate: gate)
    let early = try #require(try fixture.session())
    #expect(early.generation == 1)
    #expect(early.userJSON == StoredSession.pendingUserJSON)
    #expect(fixture.changes == [], "nothing is announced before the login answers")

    gate.fire()
    let snapshot = try await login.value
    #expect(snapshot.username == "alice")
    let stored = try #require(try fixture.session())
    #expect(stored.generation == 1)
    #expect(text(stored.accessToken) == snapshot.accessToken)
    #expect(StoredSession(stored)?.session.user.username == "alice")
    #expect(fixture.changes == [Change("default", .loggedIn)])
    // The user's write did not wait for the disk; the background sync after the answer does.
    try await eventually("the deferred commit synced") { !fixture.store.syncIsPending }
    #expect(try fixture.store.read { try $0.db.row("PRAGMA synchronous") { $0.integer(0) } } == 2)
  }

  /// The user request fails after the tokens were stored: the login fails, the session it replaced is back, and
  /// only the failed login's tokens are revoked.
  @Test func aFailedUserRequestPutsTheReplacedSessionBack() async throws {
    let fixture = try await SessionFixture()
    _ = try await fixture.service().login()
    let aliceSession = try #require(try fixture.session())
    let gate = Signal()
    gate.fire()
    let failure = ProviderError(.networkUnavailable, "test: the user request failed")
    let provider = TestProvider(fixture.local, userFetchGate: gate, userFetchFailure: failure)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])

    let error = await #expect(throws: ProviderError.self) {
      try await service.login(LoginAccount(kind: .username, text: "bob"))
    }
    #expect(error?.code == .networkUnavailable)
    let restored = try #require(try fixture.session())
    #expect(restored.generation == 3, "a new generation: a refresh of Alice's session still out is discarded")
    #expect(text(restored.accessToken) == text(aliceSession.accessToken))
    #expect(StoredSession(restored)?.session.user.username == "alice")
    try await provider.waitForRevocationToEnd()
    #expect(provider.revokedSessions.withLock { $0.count } == 1, "the failed login's session only")
    #expect(try fixture.refreshToken(of: aliceSession)?.revoked == false)
    #expect(fixture.changes == [Change("default", .loggedIn)])
    let (snapshot, _) = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(snapshot.username == "alice")
  }

  /// With no session before it, a login whose user request fails leaves the profile logged out.
  @Test func aFailedFirstLoginLeavesNoSession() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    gate.fire()
    let failure = ProviderError(.badResponse, "test: the user endpoint refused the new session")
    let provider = TestProvider(fixture.local, userFetchGate: gate, userFetchFailure: failure)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])

    await #expect(throws: ProviderError.self) { try await service.login() }
    #expect(try fixture.session() == nil)
    try await provider.waitForRevocationToEnd()
    #expect(fixture.changes == [])
  }

  /// Cancelled while the user request was out: the answer is `cancelled` and nothing of the login stays stored,
  /// as when a login without early tokens is cancelled.
  @Test func aCancelledLoginEndsWhatItStoredEarly() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let login = try await loginHeldAtItsUserRequest(fixture, gate: gate)
    login.cancel()
    gate.fire()
    await #expect(throws: CancellationError.self) { try await login.value }
    #expect(try fixture.session() == nil)
    #expect(fixture.changes == [])
  }

  /// What a process stopped between the two writes leaves: a session whose user is pending. It is fetched before
  /// anything answers with it.
  @Test func aPendingUserIsFetchedBeforeItIsAnswered() async throws {
    let fixture = try await SessionFixture()
    _ = try await fixture.service().login()
    let record = try #require(try fixture.session())
    let alice = try #require(StoredSession(record)).session.user
    try leaveUserPending(fixture)
    let provider = TestProvider(fixture.local, pendingUserOwner: alice)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    #expect(try await service.status().first?.username == nil)
    #expect(try await service.status().first?.loggedIn == true)
    #expect(provider.fetchCount.withLock { $0 } == 0)

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(!stale)
    #expect(snapshot.username == "alice")
    #expect(provider.fetchCount.withLock { $0 } == 1)
    #expect(StoredSession(try #require(try fixture.session()))?.session.user.username == "alice")
    _ = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(provider.fetchCount.withLock { $0 } == 1, "fetched once")
  }

  /// A pending user is no cache to fall back on: with the server unreachable, the answer is the network error.
  @Test func aPendingUserIsNeverAnsweredStale() async throws {
    let fixture = try await SessionFixture()
    _ = try await fixture.service().login()
    try leaveUserPending(fixture)
    let provider = TestProvider(fixture.local, networkFailure: ProviderError(.networkUnavailable, "test: down"))
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])

    let error = await #expect(throws: ProviderError.self) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
    #expect(error?.code == .networkUnavailable)
    #expect(try fixture.session() != nil, "the session stays")
  }

  private func leaveUserPending(_ fixture: SessionFixture) throws {
    let generation = try #require(try fixture.session()).generation
    let updated = try fixture.store.write { tx in
      try tx.updateCachedUser(
        profile: "default", generation: generation, userJSON: StoredSession.pendingUserJSON, at: startTime)
    }
    #expect(updated)
  }

  /// Inside a dispatched request (an `AfterAnswer` collector), the login answers before the user joins its stored
  /// tokens; a reader in this process waits for that write instead of fetching the pending user again.
  @Test func theUserIsStoredAfterTheAnswerAndReadersWaitForIt() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    let provider = TestProvider(fixture.local, userFetchGate: gate)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let afterAnswer = AfterAnswer()
    let login = Task { try await AfterAnswer.$current.withValue(afterAnswer) { try await service.login() } }
    await provider.userFetchStarted.wait()
    try await eventually("the tokens stored") { try fixture.session() != nil }
    // Read as another process would: this process's store connection may be the one waiting for the lock.
    let elsewhere = try openStore(fixture.directory)
    // Another process holds the write lock: the user's write cannot commit until it lets go.
    let other = try SQLiteConnection(path: fixture.store.databasePath)
    defer { other.close(checkpoint: false) }
    try other.execute("BEGIN IMMEDIATE")
    gate.fire()

    let snapshot = try await login.value
    #expect(snapshot.username == "alice")
    #expect(fixture.changes == [Change("default", .loggedIn)])
    let seenElsewhere = try elsewhere.read { try $0.session(profile: "default") }
    #expect(seenElsewhere?.userJSON == StoredSession.pendingUserJSON, "the answer did not wait for the write")
    let reader = Task { try await service.getUser(profile: "default", fetchFromServer: false) }
    let finished = Task { await afterAnswer.finish() }
    try other.execute("ROLLBACK")

    let (read, stale) = try await reader.value
    await finished.value
    #expect(read.username == "alice" && !stale)
    #expect(provider.fetchCount.withLock { $0 } == 0, "the reader waited for the write rather than fetching the user")
    #expect(StoredSession(try #require(try fixture.session()))?.session.user.username == "alice")
  }

  /// The tokens' commit does not wait for the disk on the HTTP thread, but the login does not answer before it is
  /// synced: with the user's write still to come (after the answer), nothing is left unsynced.
  @Test func theTokensAreOnDiskBeforeTheLoginAnswers() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    gate.fire()
    let provider = TestProvider(fixture.local, userFetchGate: gate)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let afterAnswer = AfterAnswer()
    let snapshot = try await AfterAnswer.$current.withValue(afterAnswer) { try await service.login() }
    #expect(snapshot.username == "alice")
    #expect(try fixture.session()?.userJSON == StoredSession.pendingUserJSON, "the user's write is still to come")
    #expect(!fixture.store.syncIsPending, "the tokens' commit was synced before the login answered")
    await afterAnswer.finish()
  }

  /// A tokens' commit that cannot be synced fails the login like a failed user request: the replaced session is
  /// back, and the host hears of no new login.
  @Test func aTokensCommitThatCannotBeSyncedFailsTheLoginAndIsUndone() async throws {
    let fixture = try await SessionFixture()
    _ = try await fixture.service().login()
    let aliceSession = try #require(try fixture.session())
    // SQLite keeps writing the WAL through the descriptor it holds; a sync by the WAL's name finds nothing there.
    let wal = fixture.store.databasePath + "-wal"
    #expect(unlink(wal) == 0 && symlink(fixture.directory + "/absent", wal) == 0)
    let gate = Signal()
    gate.fire()
    let provider = TestProvider(fixture.local, userFetchGate: gate)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])

    let error = await #expect(throws: StorageError.self) {
      try await service.login(LoginAccount(kind: .username, text: "bob"))
    }
    #expect(error?.code == .unavailable)
    let restored = try #require(try fixture.session())
    #expect(text(restored.accessToken) == text(aliceSession.accessToken))
    #expect(StoredSession(restored)?.session.user.username == "alice")
    #expect(fixture.changes == [Change("default", .loggedIn)], "the first login only")
    try await provider.waitForRevocationToEnd()
  }

  /// Without a collector (no dispatcher around the call), the login stores its user before it returns.
  @Test func withoutACollectorTheUserIsStoredBeforeTheLoginReturns() async throws {
    let fixture = try await SessionFixture()
    let gate = Signal()
    gate.fire()
    let provider = TestProvider(fixture.local, userFetchGate: gate)
    _ = try await fixture.service([(ProfileConfig(name: "default"), provider)]).login()
    #expect(StoredSession(try #require(try fixture.session()))?.session.user.username == "alice")
  }
}
