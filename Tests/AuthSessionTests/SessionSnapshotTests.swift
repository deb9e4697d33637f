import AuthCrypto
import AuthJSON
import AuthStorage
import AuthSupport
import Testing

@testable import AuthSession

@Suite struct SessionSnapshotTests {
  private func record(scopes: [String] = [], userJSON: String = #"{"id":"u1","username":"alice"}"#) -> SessionRecord {
    SessionRecord(
      profile: "default", generation: 3, userJSON: Array(userJSON.utf8), accessToken: SecretBytes(Array("access".utf8)),
      refreshToken: SecretBytes(Array("refresh-secret".utf8)), idToken: SecretBytes(Array("id-secret".utf8)),
      tokenType: "Bearer", expiresAt: startTime, scopes: scopes, providerState: Array("cookie-secret".utf8),
      updatedAt: startTime)
  }

  @Test func theSnapshotCarriesOnlyWhatHostsMaySee() {
    let snapshot = SessionSnapshot(record())
    #expect(snapshot.user == ["id": "u1", "username": "alice"])
    #expect(snapshot.session == ["accessToken": "access", "tokenType": "Bearer", "expiresAt": "2025-06-15T16:26:40Z"])
    #expect(snapshot.expiresAt == startTime)
    let everything = JSONWriter.string(.object(snapshot.user)) + JSONWriter.string(.object(snapshot.session))
    for secret in ["refresh-secret", "id-secret", "cookie-secret"] { #expect(!everything.contains(secret)) }
  }

  @Test func scopesAppearOnlyWhenThereAreSome() {
    #expect(SessionSnapshot(record(scopes: ["openid", "email"])).session["scopes"] == ["openid", "email"])
    #expect(SessionSnapshot(record()).session["scopes"] == nil)
  }

  @Test func anUnreadableCachedUserIsAnEmptyObject() {
    #expect(SessionSnapshot(record(userJSON: "not json")).user == [:])
    #expect(SessionSnapshot(record(userJSON: "[1]")).user == [:])
  }
}
