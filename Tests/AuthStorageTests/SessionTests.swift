import AuthCrypto
import Foundation
import Testing

@testable import AuthStorage

@Suite struct SessionTests {
  struct Stop: Error {}

  @Test func roundTripsEveryField() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let saved = sampleSession()
      let generation = try store.write { try $0.beginSession(saved, lastAccount: "alice@example.com") }
      let loaded = try #require(try store.read { try $0.session(profile: "default") })
      #expect(generation == 1 && loaded.generation == 1)
      #expect(loaded.profile == "default")
      #expect(loaded.userJSON == saved.userJSON)
      #expect(text(loaded.accessToken) == "access-1")
      #expect(text(loaded.refreshToken) == "refresh-of-access-1")
      #expect(text(loaded.idToken) == "id-of-access-1")
      #expect(loaded.tokenType == "Bearer")
      #expect(loaded.expiresAt == saved.expiresAt && loaded.updatedAt == saved.updatedAt)
      #expect(loaded.scopes == ["openid", "profile"])
      #expect(loaded.providerState == Array("cookies".utf8))
      #expect(!"\(loaded)".contains("access-1"))
    }
  }

  @Test func roundTripsAbsentOptionalsAndEmptyValues() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      let bare = SessionRecord(
        profile: "p", userJSON: [], accessToken: SecretBytes([]), tokenType: "", expiresAt: 0, updatedAt: 0)
      try store.write { try $0.beginSession(bare) }
      let loaded = try #require(try store.read { try $0.session(profile: "p") })
      #expect(loaded.userJSON.isEmpty && loaded.accessToken.count == 0)
      #expect(loaded.refreshToken == nil && loaded.idToken == nil && loaded.providerState == nil)
      #expect(loaded.scopes.isEmpty && loaded.tokenType.isEmpty)
      #expect(try store.read { try $0.lastAccount(profile: "p") } == nil)
    }
  }

  @Test func aRefreshFinishingAfterLogoutOrANewLoginIsDiscarded() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      #expect(try store.read { try $0.sessionGeneration(profile: "default") } == 0)
      try store.write { try $0.beginSession(sampleSession(token: "a")) }

      // A refresh reads generation 1 and saves against it: accepted.
      var refreshed = try #require(try store.read { try $0.session(profile: "default") })
      refreshed.accessToken = secret("a2")
      #expect(try store.write { try $0.replaceSession(refreshed) })
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "a2")

      // A logout lands while a second refresh is in flight: the refresh's save is refused.
      let inFlight = try #require(try store.read { try $0.session(profile: "default") })
      #expect(try store.write { try $0.clearSession(profile: "default") })
      #expect(try store.write { try $0.replaceSession(inFlight) } == false)
      #expect(try store.read { try $0.session(profile: "default") } == nil)

      // A new login lands while an old refresh is in flight: the old refresh is refused too.
      let generation = try store.write { try $0.beginSession(sampleSession(token: "b")) }
      #expect(generation == 3)
      #expect(try store.write { try $0.replaceSession(inFlight) } == false)
      #expect(text(try store.read { try $0.session(profile: "default") }?.accessToken) == "b")
      var current = try #require(try store.read { try $0.session(profile: "default") })
      current.accessToken = secret("b2")
      #expect(try store.write { try $0.replaceSession(current) })
      #expect(try store.read { try $0.session(profile: "default") }?.generation == 3)
    }
  }

  @Test func clearSessionIsIdempotentAndAlwaysBumpsTheGeneration() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      #expect(try store.write { try $0.clearSession(profile: "never") } == false)
      try store.write { try $0.beginSession(sampleSession()) }
      #expect(try store.write { try $0.clearSession(profile: "default") })
      #expect(try store.write { try $0.clearSession(profile: "default") } == false)
      #expect(try store.read { try $0.sessionGeneration(profile: "default") } == 3)
      // A saved session can't come back through replaceSession once cleared.
      var stale = sampleSession()
      stale.generation = 3
      #expect(try store.write { try $0.replaceSession(stale) } == false)
    }
  }

  @Test func lastAccountSurvivesLogoutUntilForgotten() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession(at: 1_700_000_500), lastAccount: "alice") }
      try store.write { try $0.clearSession(profile: "default") }
      #expect(
        try store.read { try $0.lastAccount(profile: "default") }
          == LastAccount(account: "alice", loggedInAt: 1_700_000_500))
      // A login without an account to remember keeps the previous one.
      try store.write { try $0.beginSession(sampleSession(at: 1_700_000_900)) }
      #expect(try store.read { try $0.lastAccount(profile: "default") }?.account == "alice")
      try store.write { try $0.forgetLastAccount(profile: "default") }
      #expect(try store.read { try $0.lastAccount(profile: "default") } == nil)
    }
  }

  @Test func profilesAreIndependent() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession("work", token: "w")) }
      try store.write { try $0.beginSession(sampleSession("home", token: "h")) }
      try store.write { try $0.clearSession(profile: "work") }
      #expect(try store.read { try $0.session(profile: "work") } == nil)
      #expect(text(try store.read { try $0.session(profile: "home") }?.accessToken) == "h")
    }
  }

  @Test func aThrowingWriteRollsBackEverything() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      #expect(throws: Stop.self) {
        try store.write { tx in
          try tx.beginSession(sampleSession())
          try tx.insertAccount(sampleAccount("1", username: "alice"))
          throw Stop()
        }
      }
      #expect(try store.read { try $0.session(profile: "default") } == nil)
      #expect(try store.read { try $0.sessionGeneration(profile: "default") } == 0)
      #expect(try store.read { try $0.accounts() }.isEmpty)
    }
  }

  @Test func aSealedValueMovedToAnotherRowDoesNotOpen() throws {
    try withTemporaryDirectory { parent in
      let store = try openStore(parent)
      try store.write { try $0.beginSession(sampleSession("victim", token: "victim-token")) }
      try store.write { try $0.beginSession(sampleSession("attacker", token: "attacker-token")) }
      try store.write { tx in
        try tx.db.run(
          """
          UPDATE sessions SET access_token = (SELECT access_token FROM sessions WHERE profile = 'victim')
          WHERE profile = 'attacker'
          """)
      }
      #expect(storageError { try store.read { try $0.session(profile: "attacker") } }?.code == .corrupt)
      #expect(text(try store.read { try $0.session(profile: "victim") }?.accessToken) == "victim-token")
    }
  }
}
