import AuthCrypto
import AuthJSON
import AuthStorage
import Synchronization
import Testing

@testable import AuthProviders

@Suite struct LocalProviderRefreshTests {
  private func rejection(
    _ fixture: LocalFixture, _ issued: IssuedSession, sourceLocation: SourceLocation = #_sourceLocation
  ) async -> ProviderError.Code? {
    let error = await #expect(throws: ProviderError.self, sourceLocation: sourceLocation) {
      try await fixture.refresh(issued)
    }
    return error?.code
  }

  @Test func refreshRotatesBothTokensAndMarksTheOldOneUsed() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.registerAlice()
    let first = try await fixture.login()
    fixture.clock.advance(by: 600)
    let now = fixture.clock.now()
    let second = try #require(try await fixture.refresh(first))

    #expect(second.user == user)
    #expect(text(second.accessToken) != text(first.accessToken))
    #expect(text(second.refreshToken) != text(first.refreshToken))
    #expect(second.expiresAt == now + fixture.accessTokenTTL)
    #expect(try claims(of: second.accessToken)["iat"] == .number(JSONNumber(now)))

    let old = try #require(try fixture.storedRefreshToken(first.refreshToken))
    let new = try #require(try fixture.storedRefreshToken(second.refreshToken))
    #expect(old.usedAt == now && !old.revoked)
    #expect(new.usedAt == nil && !new.revoked)
    #expect(new.familyID == old.familyID)
    #expect(new.issuedAt == now && new.expiresAt == now + 30 * 86_400)

    // The chain goes on.
    let third = try #require(try await fixture.refresh(second))
    #expect(try fixture.storedRefreshToken(third.refreshToken)?.familyID == old.familyID)
  }

  /// The session service stores the client's session in the transaction the rotation ran in.
  @Test func theCommitRunsOnceInsideTheRotatingTransaction() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let oldHash = RefreshTokenRecord.hash(of: try #require(first.refreshToken))
    let seen = Mutex<[(oldUsed: Bool, newStored: Bool, accessToken: String?)]>([])
    let second = try await fixture.refresh(first) { tx, issued in
      let newHash = RefreshTokenRecord.hash(of: issued.refreshToken ?? SecretBytes([]))
      let observed = (
        oldUsed: try tx.refreshToken(hash: oldHash)?.usedAt != nil,
        newStored: try tx.refreshToken(hash: newHash) != nil,
        accessToken: text(issued.accessToken)
      )
      seen.withLock { $0.append(observed) }
      return true
    }
    let calls = seen.withLock { $0 }
    #expect(calls.count == 1)
    #expect(calls.first?.oldUsed == true)
    #expect(calls.first?.newStored == true)
    #expect(calls.first?.accessToken == text(second?.accessToken))
  }

  @Test func aCommitReturningFalseRollsTheRotationBack() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let newToken = Mutex<String?>(nil)
    let discarded = try await fixture.refresh(first) { tx, issued in
      // Whatever the commit itself wrote goes with the rotation.
      try tx.putSecret(SecretBytes(Array("probe".utf8)), named: "test.probe")
      newToken.withLock { $0 = text(issued.refreshToken) }
      return false
    }
    #expect(discarded == nil)
    #expect(try fixture.store.read { try $0.secret(named: "test.probe") } == nil)
    let old = try #require(try fixture.storedRefreshToken(first.refreshToken))
    #expect(old.usedAt == nil && !old.revoked)
    let abandoned = try #require(newToken.withLock { $0 })
    #expect(try fixture.storedRefreshToken(SecretBytes(Array(abandoned.utf8))) == nil)

    // The old token still works: no reuse was recorded.
    let second = try #require(try await fixture.refresh(first))
    #expect(try fixture.storedRefreshToken(second.refreshToken) != nil)
  }

  @Test func aCommitThatThrowsRollsTheRotationBackAndPropagates() async throws {
    struct Boom: Error, Equatable {}
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    await #expect(throws: Boom()) {
      try await fixture.refresh(first) { _, _ in throw Boom() }
    }
    #expect(try fixture.storedRefreshToken(first.refreshToken)?.usedAt == nil)
    #expect(try await fixture.refresh(first) != nil)
  }

  @Test func reusingAUsedTokenRevokesTheWholeFamily() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let second = try #require(try await fixture.refresh(first))
    let third = try #require(try await fixture.refresh(second))
    let other = try await fixture.login()

    #expect(await rejection(fixture, first) == .sessionRejected)
    // The newest token of the family is dead too.
    #expect(await rejection(fixture, third) == .sessionRejected)
    for issued in [first, second, third] {
      #expect(try fixture.storedRefreshToken(issued.refreshToken)?.revoked == true)
    }
    // Another login's family is untouched.
    #expect(try await fixture.refresh(other) != nil)
  }

  @Test(arguments: [(86_399, true), (86_400, false), (10 * 86_400, false)] as [(Int64, Bool)])
  func aRefreshTokenExpiresAfterItsLifetime(elapsed: Int64, works: Bool) async throws {
    let fixture = try LocalFixture(refreshTokenTTLDays: 1)
    try await fixture.registerAlice()
    let issued = try await fixture.login()
    fixture.clock.advance(by: elapsed)
    if works {
      #expect(try await fixture.refresh(issued) != nil)
    } else {
      #expect(await rejection(fixture, issued) == .sessionRejected)
    }
  }

  @Test func aDeletedAccountsTokensAreRejected() async throws {
    let fixture = try LocalFixture()
    let user = try await fixture.registerAlice()
    let issued = try await fixture.login()
    #expect(try fixture.store.write { try $0.deleteAccount(id: user.id) })
    #expect(await rejection(fixture, issued) == .sessionRejected)
  }

  @Test func aDisabledAccountsTokensAreRejectedForGood() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let issued = try await fixture.login()
    try fixture.updateAccount { $0.disabled = true }
    #expect(await rejection(fixture, issued) == .sessionRejected)
    // Re-enabling the account does not bring the session back: its family was revoked.
    try fixture.updateAccount { $0.disabled = false }
    #expect(await rejection(fixture, issued) == .sessionRejected)
  }

  @Test func aSessionWithoutOrWithAnUnknownRefreshTokenIsRejected() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let issued = try await fixture.login()
    var without = issued
    without.refreshToken = nil
    var unknown = issued
    unknown.refreshToken = SecretBytes(Array("not-a-token-we-issued".utf8))
    for record in [without, unknown] {
      let error = await #expect(throws: ProviderError.self) {
        try await fixture.refresh(record) { _, _ in
          Issue.record("commit must not run for a rejected token")
          return true
        }
      }
      #expect(error?.code == .sessionRejected)
      #expect(error?.isTransient == false)
    }
  }

  @Test func revokeEndsTheSessionsFamily() async throws {
    let fixture = try LocalFixture()
    try await fixture.registerAlice()
    let first = try await fixture.login()
    let second = try #require(try await fixture.refresh(first))
    let other = try await fixture.login()
    try await fixture.provider.revoke(second)
    #expect(await rejection(fixture, second) == .sessionRejected)
    #expect(try fixture.storedRefreshToken(first.refreshToken)?.revoked == true)
    #expect(try await fixture.refresh(other) != nil)
    // Revoking again, or a session without a refresh token, is harmless.
    try await fixture.provider.revoke(second)
    var bare = other
    bare.refreshToken = nil
    try await fixture.provider.revoke(bare)
  }
}
