import AuthConfig
import AuthProviders
import Testing

@testable import AuthSession
@testable import AuthStorage

/// `getUser {refresh: true}` sends its user request with the session this process last saw, before it reads the
/// store, and uses the outcome only when the stored session is that very one.
@Suite struct SessionServiceFetchAheadTests {
  private let bob = LoginAccount(kind: .username, text: "bob")

  private func eventually(_ what: Comment, _ condition: () throws -> Bool) async throws {
    for _ in 0..<5_000 {
      if try condition() { return }
      try await Task.sleep(for: .milliseconds(1))
    }
    Issue.record("never happened: \(what)")
  }

  private func bytes(_ token: String?) throws -> [UInt8] { Array(try #require(token).utf8) }

  /// Logs alice in through `service`, then bob through another process's store and service: the session `service`
  /// last saw is no longer the stored one.
  private func loginHereThenElsewhere(_ fixture: SessionFixture, _ service: SessionService) async throws
    -> (first: SessionSnapshot, second: SessionSnapshot)
  {
    let first = try await service.login()
    let elsewhere = try openStore(fixture.directory)
    let otherProcess = fixture.service(
      [(ProfileConfig(name: "default"), fixture.local)], stores: LazyStore { elsewhere })
    return (first, try await otherProcess.login(bob))
  }

  /// The store's read waits here for a login's user write, which another connection's lock holds up: the user
  /// request is already out, and its outcome is the answer.
  @Test func theUserRequestGoesOutBeforeTheStoreIsRead() async throws {
    let fixture = try await SessionFixture()
    let loginGate = Signal()
    let provider = TestProvider(fixture.local, userFetchGate: loginGate, fetchesUserAhead: true)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let afterAnswer = AfterAnswer()
    let login = Task { try await AfterAnswer.$current.withValue(afterAnswer) { try await service.login() } }
    await provider.userFetchStarted.wait()
    try await eventually("the tokens stored") { try fixture.session() != nil }
    let other = try SQLiteConnection(path: fixture.store.databasePath)
    defer { other.close(checkpoint: false) }
    try other.execute("BEGIN IMMEDIATE")
    loginGate.fire()
    let loggedIn = try await login.value
    let finished = Task { await afterAnswer.finish() }

    let getUser = Task { try await service.getUser(profile: "default", fetchFromServer: true) }
    try await eventually("the user request sent while the store's read waits") {
      provider.fetchCount.withLock { $0 } == 1
    }
    try other.execute("ROLLBACK")
    let (snapshot, stale) = try await getUser.value
    await finished.value

    #expect(snapshot.username == "alice" && !stale)
    #expect(provider.fetchCount.withLock { $0 } == 1, "the early request's outcome was the answer")
    #expect(provider.fetchedWith.withLock { $0 } == [try bytes(loggedIn.accessToken)])
  }

  /// Another process logged in again meanwhile: the request sent with the old session is ignored, and the user is
  /// fetched with the stored one.
  @Test func aRequestSentWithASessionReplacedElsewhereIsIgnored() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, fetchesUserAhead: true)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let (first, second) = try await loginHereThenElsewhere(fixture, service)

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(snapshot.username == "bob" && !stale)
    #expect(snapshot.accessToken == second.accessToken)
    #expect(provider.fetchedWith.withLock { $0 } == [try bytes(first.accessToken), try bytes(second.accessToken)])

    // Now it knows the stored session: the next request goes ahead with it, and is the answer.
    _ = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(provider.fetchedWith.withLock { $0 }.last == (try bytes(second.accessToken)))
    #expect(provider.fetchCount.withLock { $0 } == 3)
  }

  @Test func nothingGoesAheadAfterThisProcessLoggedOut() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, fetchesUserAhead: true)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    _ = try await service.login()
    _ = try await service.logout(profile: "default")

    await #expect(throws: SessionError(.notLoggedIn(lastAccount: "alice"))) {
      try await service.getUser(profile: "default", fetchFromServer: true)
    }
    #expect(provider.fetchCount.withLock { $0 } == 0)
  }

  /// A session due for a refresh is refreshed first: no request goes out with the token about to be replaced.
  @Test func aSessionDueForRefreshIsRefreshedBeforeItsUserIsFetched() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, fetchesUserAhead: true)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let first = try await service.login()
    fixture.clock.advance(by: fixture.accessTokenTTL)

    let (snapshot, stale) = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(!stale && snapshot.accessToken != first.accessToken)
    #expect(provider.refreshCount.withLock { $0 } == 1)
    #expect(provider.fetchedWith.withLock { $0 } == [try bytes(snapshot.accessToken)])
  }

  /// A provider whose user fetch may not go ahead is asked once, after the read, with the stored session.
  @Test func aProviderThatDoesNotFetchAheadIsAskedOnceWithTheStoredSession() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    let (first, second) = try await loginHereThenElsewhere(fixture, service)
    _ = try await service.getUser(profile: "default", fetchFromServer: true)
    #expect(first.accessToken != second.accessToken)
    #expect(provider.fetchedWith.withLock { $0 } == [try bytes(second.accessToken)])
  }
}
