import AuthJSON
import AuthProviders
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

  init(_ issued: IssuedSession) {
    user = issued.user.json
    var session: JSONObject = [:]
    let accessToken = issued.accessToken.withUnsafeBytes { Array($0) }
    if !accessToken.isEmpty {
      session.appendNew(key: "accessToken", value: .string(String(decoding: accessToken, as: UTF8.self)))
    }
    session.appendNew(key: "tokenType", value: .string(issued.tokenType))
    session.appendNew(key: "expiresAt", value: .string(RFC3339.format(issued.expiresAt)))
    if !issued.scopes.isEmpty { session.appendNew(key: "scopes", value: .array(issued.scopes.map { .string($0) })) }
    self.session = session
    expiresAt = issued.expiresAt
  }
}
