import AuthCrypto

/// One profile's logged-in session. Tokens, the cached user and provider state (cookie jar etc.) are sealed at
/// rest; `description` shows none of them.
package struct SessionRecord: Sendable, CustomStringConvertible {
  package var profile: String
  /// The profile's generation this session belongs to; see `WriteTransaction.replaceSession(_:)`.
  package var generation: Int64
  /// The provider's user object as JSON bytes (sealed: it holds personal data).
  package var userJSON: [UInt8]
  package var accessToken: SecretBytes
  package var refreshToken: SecretBytes?
  package var idToken: SecretBytes?
  package var tokenType: String
  /// Unix seconds.
  package var expiresAt: Int64
  /// OAuth scope tokens (RFC 6749 §3.3: no spaces inside a token). Stored space-separated.
  package var scopes: [String]
  /// Whatever the provider needs to keep between calls, e.g. the form provider's cookie jar (sealed).
  package var providerState: [UInt8]?
  /// Unix seconds.
  package var updatedAt: Int64

  package init(
    profile: String, generation: Int64 = 0, userJSON: [UInt8], accessToken: SecretBytes,
    refreshToken: SecretBytes? = nil, idToken: SecretBytes? = nil, tokenType: String = "Bearer", expiresAt: Int64,
    scopes: [String] = [], providerState: [UInt8]? = nil, updatedAt: Int64
  ) {
    self.profile = profile
    self.generation = generation
    self.userJSON = userJSON
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.idToken = idToken
    self.tokenType = tokenType
    self.expiresAt = expiresAt
    self.scopes = scopes
    self.providerState = providerState
    self.updatedAt = updatedAt
  }

  package var description: String {
    "SessionRecord(profile: \(profile), generation: \(generation), expiresAt: \(expiresAt), <redacted>)"
  }
}

/// The account a profile last logged in with, kept across logouts so a login form can pre-fill it.
package struct LastAccount: Sendable, Equatable {
  /// What the user typed (username, email or phone).
  package var account: String
  /// Unix seconds.
  package var loggedInAt: Int64

  package init(account: String, loggedInAt: Int64) {
    self.account = account
    self.loggedInAt = loggedInAt
  }
}
