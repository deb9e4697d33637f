import AuthConfig
import AuthProviders
import Glibc
import Testing

@testable import AuthSession
@testable import AuthStorage

/// A login that replaces a profile's session ends the old one exactly as `logout` would.
@Suite(.timeLimit(.minutes(1))) struct SessionServiceReplacementTests {
  @Test func aLocalLoginRevokesTheReplacedFamilyInItsOwnTransaction() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    let replaced = try #require(try fixture.session())
    let replacedSession = try #require(try fixture.storedSession())

    _ = try await service.login(LoginAccount(kind: .username, text: "bob"))
    #expect(try fixture.refreshToken(of: replaced)?.revoked == true)
    // The old refresh token is refused by the provider itself, as after a logout.
    guard case .rotation(let rotation) = try await fixture.local.refresh(replacedSession, profile: "default") else {
      Issue.record("the local provider refreshes by rotation")
      return
    }
    let refused = try fixture.store.write { try rotation.run(in: $0) }
    #expect(throws: ProviderError.self) { try refused.get() }
    #expect(try fixture.storedSession()?.user.username == "bob")
  }

  /// Before, every login left one more live token family: 2,032 families for 4 sessions after a storm.
  @Test func aLoginStormLeavesAboutOneTokenRowPerSession() async throws {
    let fixture = try await SessionFixture()
    let profiles = (0..<4).map { (ProfileConfig(name: "p\($0)"), fixture.local as any IdentityProvider) }
    let service = fixture.service(profiles)
    for round in 0..<25 {
      for profile in 0..<4 {
        let who = (round + profile).isMultiple(of: 2) ? alice : LoginAccount(kind: .username, text: "bob")
        _ = try await service.login(who, profile: "p\(profile)")
      }
    }
    let (issued, _) = try fixture.refreshTokenCounts()
    // The four live families, plus at most the one the last login replaced (removed by the next login).
    #expect(issued >= 4 && issued <= 5)
    let live = try fixture.store.read { tx in
      try tx.db.row("SELECT COUNT(DISTINCT family_id) FROM refresh_tokens WHERE revoked = 0") { $0.integer(0) }
    }
    #expect(live == 4)
  }

  @Test func aRemoteReplacedSessionIsRevokedAfterTheAnswerWithoutDelayingIt() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, revocation: .hangs)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)], revokeTimeout: .seconds(30))
    _ = try await service.login()
    let replaced = try #require(try fixture.storedSession())

    let answer = try await service.login(LoginAccount(kind: .username, text: "bob"))
    // Answered while the revocation (which hangs until its 30 s deadline) has not ended.
    #expect(provider.revokeEnded.withLock { $0 } == false)
    #expect(answer.username == "bob")
    await provider.revokeStarted.wait()
    #expect(provider.revokedSessions.withLock { $0 } == [replaced.accessToken.withUnsafeBytes { Array($0) }])
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedIn)])
  }

  /// The replaced tokens leave the WAL after the answer, on the thread that committed the login, without any
  /// later write: the WAL is checkpointed, truncated and started anew, with new salts in its header.
  @Test func aLoginScrubsTheReplacedSessionFromTheWALOnceItHasAnswered() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    _ = try await service.login()
    let wal = fixture.store.databasePath + "-wal"
    // A first login replaces nothing: its frames stay, under the WAL's current salts.
    let salts = Self.salts(wal)
    #expect(salts != nil)
    _ = try await service.login(LoginAccount(kind: .username, text: "bob"))
    var waited = 0
    // A hang guard, not a speed test: the scrub follows the answer at once.
    while (Self.salts(wal) == salts || Self.salts(wal) == nil) && waited < 200 {
      try await Task.sleep(for: .milliseconds(100))
      waited += 1
    }
    #expect(Self.salts(wal) != salts && Self.salts(wal) != nil)
    #expect(try fixture.storedSession()?.user.username == "bob")
  }

  /// Bytes 16..<24 of the WAL header: they change whenever the WAL starts anew; nil without a header (also while
  /// the scrub has pre-sized the emptied file with zeros and not yet written the new header over them).
  static func salts(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 32)
    guard pread(fd, &header, 32, 0) == 32, header.contains(where: { $0 != 0 }) else { return nil }
    return Array(header[16..<24])
  }

  @Test func theFirstLoginOfAProfileRevokesNothing() async throws {
    let fixture = try await SessionFixture()
    let provider = TestProvider(fixture.local, revocation: .fails)
    let service = fixture.service([(ProfileConfig(name: "default"), provider)])
    _ = try await service.login()
    _ = try await service.logout(profile: "default")
    _ = try await service.login()
    // Only the logout asked; a login after a logout replaces nothing.
    #expect(provider.revokedSessions.withLock { $0.count } == 1)
  }
}
