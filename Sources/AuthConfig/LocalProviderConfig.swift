/// Settings of the `local` provider, whose accounts live in the sidecar's own store.
package struct LocalProviderConfig: Sendable, Equatable {
  package static let accessTokenTTLSecondsRange = 60...86_400
  /// Short-lived on purpose: a leaked access token cannot be revoked, only outlived.
  package static let defaultAccessTokenTTLSeconds = 900
  package static let refreshTokenTTLDaysRange = 1...365
  package static let defaultRefreshTokenTTLDays = 30

  /// Every setting at its default.
  package static let defaults = LocalProviderConfig()

  /// Lifetime of a signed access token.
  package let accessTokenTTLSeconds: Int
  /// Lifetime of a refresh token; each use rotates it and starts a new lifetime.
  package let refreshTokenTTLDays: Int
  /// The program (and its arguments) that delivers one-time codes: it gets `{to, channel, code, purpose,
  /// expiresAt}` as JSON on stdin. nil: this profile sends no codes (`sendCode` answers `unsupported`).
  package let codeDeliveryCommand: [String]?

  /// - Important: both values must lie in their ranges; the loader checks them for files.
  package init(
    accessTokenTTLSeconds: Int = defaultAccessTokenTTLSeconds,
    refreshTokenTTLDays: Int = defaultRefreshTokenTTLDays,
    codeDeliveryCommand: [String]? = nil
  ) {
    precondition(Self.accessTokenTTLSecondsRange.contains(accessTokenTTLSeconds), "accessTokenTTLSeconds out of range")
    precondition(Self.refreshTokenTTLDaysRange.contains(refreshTokenTTLDays), "refreshTokenTTLDays out of range")
    self.accessTokenTTLSeconds = accessTokenTTLSeconds
    self.refreshTokenTTLDays = refreshTokenTTLDays
    self.codeDeliveryCommand = codeDeliveryCommand
  }
}
