import AuthCrypto
import AuthJSON
import AuthProviders
import AuthStorage
import AuthSupport
import Testing

@testable import AuthSession

@Suite struct SessionSnapshotTests {
  private func session(scopes: [String] = []) -> IssuedSession {
    IssuedSession(
      user: UserInfo(id: "u1", username: "alice"), accessToken: SecretBytes(Array("access".utf8)),
      refreshToken: SecretBytes(Array("refresh-secret".utf8)), idToken: SecretBytes(Array("id-secret".utf8)),
      tokenType: "Bearer", expiresAt: startTime, scopes: scopes, providerState: Array("cookie-secret".utf8))
  }

  @Test func theSnapshotCarriesOnlyWhatHostsMaySee() {
    let snapshot = SessionSnapshot(session())
    #expect(snapshot.user == ["id": "u1", "username": "alice"])
    #expect(snapshot.session == ["accessToken": "access", "tokenType": "Bearer", "expiresAt": "2025-06-15T16:26:40Z"])
    #expect(snapshot.expiresAt == startTime)
    let everything = JSONWriter.string(.object(snapshot.user)) + JSONWriter.string(.object(snapshot.session))
    for secret in ["refresh-secret", "id-secret", "cookie-secret"] { #expect(!everything.contains(secret)) }
  }

  @Test func scopesAppearOnlyWhenThereAreSome() {
    #expect(SessionSnapshot(session(scopes: ["openid", "email"])).session["scopes"] == ["openid", "email"])
    #expect(SessionSnapshot(session()).session["scopes"] == nil)
  }
}

/// The one place a stored user is decoded.
@Suite struct StoredSessionTests {
  private func record(userJSON: String) -> SessionRecord {
    SessionRecord(
      profile: "default", generation: 3, userJSON: Array(userJSON.utf8), accessToken: SecretBytes(Array("a".utf8)),
      expiresAt: startTime, updatedAt: startTime)
  }

  @Test func aStoredUserReadsBackAsWritten() throws {
    let user = UserInfo(id: "u1", username: "alice", email: "a@example.com", extra: ["team": "red"])
    let written = StoredSession(
      IssuedSession(user: user, accessToken: SecretBytes(Array("a".utf8)), refreshToken: nil, expiresAt: startTime),
      profile: "default", generation: 3)
    let read = try #require(StoredSession(written.record(updatedAt: startTime)))
    #expect(read.session.user == user)
    #expect(read.generation == 3 && read.profile == "default")
  }

  @Test func anUnreadableStoredUserIsNoSession() {
    for json in ["", "not json", "[1]", #"{"username":"alice"}"#, #"{"id":"u1"}"#] {
      #expect(StoredSession(record(userJSON: json)) == nil)
    }
  }
}
