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
