import AuthCrypto

/// A refresh token issued by the `local` provider. Only its SHA-256 is stored: a copy of the database alone
/// cannot be replayed.
package struct RefreshTokenRecord: Sendable, Equatable {
  /// SHA-256 of the token bytes; see `hash(of:)`.
  package var tokenHash: [UInt8]
  /// All tokens rotated from one login share a family; reuse of a used token revokes the whole family.
  package var familyID: String
  package var accountID: String
  package var profile: String
  /// Unix seconds.
  package var issuedAt: Int64
  /// Unix seconds.
  package var expiresAt: Int64
  /// Unix seconds; set when the token was exchanged. A second use is reuse.
  package var usedAt: Int64?
  package var revoked: Bool

  package init(
    tokenHash: [UInt8], familyID: String, accountID: String, profile: String, issuedAt: Int64, expiresAt: Int64,
    usedAt: Int64? = nil, revoked: Bool = false
  ) {
    self.tokenHash = tokenHash
    self.familyID = familyID
    self.accountID = accountID
    self.profile = profile
    self.issuedAt = issuedAt
    self.expiresAt = expiresAt
    self.usedAt = usedAt
    self.revoked = revoked
  }

  /// The stored form of a token: SHA-256 of its bytes.
  package static func hash(of token: SecretBytes) -> [UInt8] {
    token.withUnsafeBytes { raw in
      var bytes = Array(raw)
      defer { bytes.wipe() }
      return SHA256.hash(bytes)
    }
  }
}
