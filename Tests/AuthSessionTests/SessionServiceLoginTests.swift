import AuthConfig
import AuthJSON
import AuthProviders
import AuthStorage
import AuthSupport
import Testing

@testable import AuthSession

@Suite struct SessionServiceLoginTests {
  @Test func loginStoresTheSessionAndNotifies() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let snapshot = try await service.login()

    #expect(snapshot.username == "alice")
    #expect(snapshot.user.keys == ["id", "username", "email"])
    #expect(snapshot.session.keys == ["accessToken", "tokenType", "expiresAt"])
    #expect(snapshot.session["tokenType"] == "Bearer")
    #expect(snapshot.session["expiresAt"] == .string(RFC3339.format(startTime + 900)))
    #expect(snapshot.expiresAt == startTime + 900)

    let stored = try #require(try fixture.session())
    #expect(stored.generation == 1)
    #expect(text(stored.accessToken) == snapshot.accessToken)
    #expect(try fixture.refreshToken(of: stored) != nil)
    #expect(stored.expiresAt == snapshot.expiresAt)
    #expect(stored.updatedAt == startTime)
    #expect(fixture.changes == [Change("default", .loggedIn)])

    // getUser answers from the store without a refresh.
    let (read, stale) = try await service.getUser(profile: "default", fetchFromServer: false)
    #expect(!stale)
    #expect(read.accessToken == snapshot.accessToken)
    #expect(read.user == snapshot.user)
  }

  @Test func aSecondLoginReplacesTheSession() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let first = try await service.login()
    let second = try await service.login(LoginAccount(kind: .username, text: "bob"))
    #expect(second.accessToken != first.accessToken)
    let stored = try #require(try fixture.session())
    #expect(stored.generation == 2)
    #expect(text(stored.accessToken) == second.accessToken)
    #expect(try await service.getUser(profile: "default", fetchFromServer: false).0.username == "bob")
    #expect(fixture.changes == [Change("default", .loggedIn), Change("default", .loggedIn)])
  }

  @Test func aRefusedLoginLeavesTheCurrentSessionAlone() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let snapshot = try await service.login()
    await #expect(throws: ProviderError(.invalidCredentials, "local login refused")) {
      try await service.login(profile: "default", account: LoginAccount(kind: .username, text: "bob"), password: "nope")
    }
    #expect(text(try fixture.session()?.accessToken) == snapshot.accessToken)
    #expect(fixture.changes == [Change("default", .loggedIn)])
  }

  @Test func sessionsArePerProfile() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service([
      (ProfileConfig(name: "default"), fixture.local), (ProfileConfig(name: "work"), fixture.local),
    ])
    let work = try await service.login(LoginAccount(kind: .username, text: "bob"), profile: "work")
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: nil))) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
    #expect(try await service.getUser(profile: "work", fetchFromServer: false).0.accessToken == work.accessToken)
    #expect(fixture.changes == [Change("work", .loggedIn)])
  }

  // MARK: - Logged out, and the remembered account

  @Test func getUserNeverLoggedInHasNoLastAccount() async throws {
    let fixture = try await SessionFixture()
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: nil))) {
      try await fixture.service().getUser(profile: "default", fetchFromServer: false)
    }
  }

  @Test(
    arguments: [
      (7, 0, "alice@example.com"),
      (7, 7 * 86_400, "alice@example.com"),
      (7, 7 * 86_400 + 1, nil),
      (1, 86_400 + 1, nil),
      (30, 29 * 86_400, "alice@example.com"),
      (0, 0, nil),
    ] as [(Int, Int64, String?)])
  func getUserLoggedOutOffersTheLastAccountWhileRemembered(days: Int, elapsed: Int64, expected: String?) async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service([(ProfileConfig(name: "default", rememberAccountDays: days), fixture.local)])
    _ = try await service.login(LoginAccount(kind: .email, text: "alice@example.com"))
    _ = try await service.logout(profile: "default")
    fixture.clock.advance(by: elapsed)
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: expected))) {
      try await service.getUser(profile: "default", fetchFromServer: false)
    }
    await #expect(throws: SessionError(.notLoggedIn(lastAccount: expected))) {
      try await service.refreshToken(profile: "default", force: true)
    }
  }

  // MARK: - Register, profiles, status

  @Test func registerGoesToTheProfilesProvider() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let user = try await service.register(profile: "default", Registration(username: "carol"), password: password)
    #expect(user.username == "carol")
    _ = try await service.login(LoginAccount(kind: .username, text: "carol"))
    #expect(fixture.changes == [Change("default", .loggedIn)])
  }

  @Test func registerOnAProviderWithoutRegistrationIsUnsupported() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service([
      (ProfileConfig(name: "default"), WithoutRegistration(base: fixture.local))
    ])
    let error = await #expect(throws: ProviderError.self) {
      try await service.register(profile: "default", Registration(username: "carol"), password: password)
    }
    #expect(error?.code == .unsupported)
    #expect(try fixture.store.read { try $0.account(username: "carol") } == nil)
  }

  @Test func everyMethodRefusesAnUnknownProfile() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service()
    let unknown = SessionError(.unknownProfile("nope"))
    await #expect(throws: unknown) { try await service.login(profile: "nope") }
    await #expect(throws: unknown) { try await service.getUser(profile: "nope", fetchFromServer: true) }
    await #expect(throws: unknown) { try await service.refreshToken(profile: "nope", force: true) }
    await #expect(throws: unknown) { try await service.logout(profile: "nope") }
    await #expect(throws: unknown) {
      try await service.register(profile: "nope", Registration(username: "carol"), password: password)
    }
    #expect(throws: unknown) { try service.profile("nope") }
    #expect(try fixture.store.read { try $0.account(username: "carol") } == nil)
    #expect(fixture.changes.isEmpty)
  }

  @Test func statusListsEveryProfileWithItsState() async throws {
    let fixture = try await SessionFixture()
    let service = fixture.service([
      (ProfileConfig(name: "work"), fixture.local), (ProfileConfig(name: "default"), fixture.local),
      (ProfileConfig(name: "alt"), TestProvider(fixture.local)),
    ])
    #expect(service.profileNames == ["alt", "default", "work"])
    #expect(try service.storageProtection() == "env-key")
    _ = try await service.login(LoginAccount(kind: .username, text: "bob"), profile: "work")

    let status = try await service.status()
    #expect(status.map(\.name) == ["alt", "default", "work"])
    #expect(status.map(\.provider) == [.rest, .local, .local])
    #expect(status.map(\.loggedIn) == [false, false, true])
    #expect(status.map(\.expiresAt) == [nil, nil, startTime + 900])
    #expect(status.map(\.username) == [nil, nil, "bob"])
  }
}
