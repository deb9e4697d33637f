import AuthCrypto

/// A session as a provider issues it and as the store keeps it: the user, the tokens, their expiry and scopes,
/// and the provider's own state. Providers return one from a login or a refresh, and are handed the stored one
/// (its user decoded once, by `SessionService`, when the record was read) to refresh, revoke or ask about.
package struct IssuedSession: Sendable {
  package var user: UserInfo
  package var accessToken: SecretBytes
  package var refreshToken: SecretBytes?
  package var idToken: SecretBytes?
  package var tokenType: String
  /// Unix seconds.
  package var expiresAt: Int64
  package var scopes: [String]
  /// Provider-specific state kept sealed with the session (e.g. a cookie jar).
  package var providerState: [UInt8]?

  package init(
    user: UserInfo, accessToken: SecretBytes, refreshToken: SecretBytes?, idToken: SecretBytes? = nil,
    tokenType: String = "Bearer", expiresAt: Int64, scopes: [String] = [], providerState: [UInt8]? = nil
  ) {
    self.user = user
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.idToken = idToken
    self.tokenType = tokenType
    self.expiresAt = expiresAt
    self.scopes = scopes
    self.providerState = providerState
  }
}

extension IssuedSession {
  /// Whether `other` is this very session, field for field (tokens compared in constant time): a provider given
  /// either sends the same requests. Kept beside the fields so that a new one is compared too.
  package func isIdentical(to other: IssuedSession) -> Bool {
    accessToken.constantTimeEquals(other.accessToken)
      && Self.same(refreshToken, other.refreshToken) && Self.same(idToken, other.idToken)
      && tokenType == other.tokenType && expiresAt == other.expiresAt && scopes == other.scopes
      && providerState == other.providerState && user == other.user
  }

  private static func same(_ first: SecretBytes?, _ second: SecretBytes?) -> Bool {
    switch (first, second) {
    case (nil, nil): true
    case (let first?, let second?): first.constantTimeEquals(second)
    default: false
    }
  }
}
