import AuthJSON
import AuthProviders
import AuthStorage
import AuthSupport

/// A session as hosts see it: the user plus `{accessToken, tokenType, expiresAt, scopes?}`.
/// Refresh tokens, id tokens and provider state never leave the sidecar.
///
/// A provider without a bearer token (the `form` provider, whose credential is a cookie that stays in the
/// sidecar) stores an empty access token; hosts then see no `accessToken` at all rather than an empty one.
package struct SessionSnapshot: Sendable {
  package let user: JSONObject
  package let session: JSONObject
  package let expiresAt: Int64

  init(_ record: SessionRecord) {
    user = (try? JSONParser.parse(record.userJSON))?.objectValue ?? [:]
    var session: JSONObject = [:]
    let accessToken = record.accessToken.withUnsafeBytes { Array($0) }
    if !accessToken.isEmpty {
      session.appendNew(key: "accessToken", value: .string(String(decoding: accessToken, as: UTF8.self)))
    }
    session.appendNew(key: "tokenType", value: .string(record.tokenType))
    session.appendNew(key: "expiresAt", value: .string(RFC3339.format(record.expiresAt)))
    if !record.scopes.isEmpty { session.appendNew(key: "scopes", value: .array(record.scopes.map { .string($0) })) }
    self.session = session
    expiresAt = record.expiresAt
  }
}

extension SessionRecord {
  /// The record a provider's issued session becomes in the store.
  init(_ issued: IssuedSession, profile: String, generation: Int64, now: Int64) {
    self.init(
      profile: profile, generation: generation, userJSON: JSONWriter.encode(.object(issued.user.json)),
      accessToken: issued.accessToken, refreshToken: issued.refreshToken, idToken: issued.idToken,
      tokenType: issued.tokenType, expiresAt: issued.expiresAt, scopes: issued.scopes,
      providerState: issued.providerState, updatedAt: now)
  }
}
