/// The `local` provider's refresh tokens, stored by SHA-256 hash, rotated on every use with reuse detection.
extension ReadTransaction {
  package func refreshToken(hash: [UInt8]) throws -> RefreshTokenRecord? {
    try db.row(
      """
      SELECT token_hash, family_id, account_id, profile, issued_at, expires_at, used_at, revoked
      FROM refresh_tokens WHERE token_hash = ?
      """, [.blob(hash)]
    ) { row in
      RefreshTokenRecord(
        tokenHash: row.blob(0), familyID: row.text(1), accountID: row.text(2), profile: row.text(3),
        issuedAt: row.integer(4), expiresAt: row.integer(5), usedAt: row.optionalInteger(6), revoked: row.bool(7))
    }
  }
}

extension WriteTransaction {
  /// - Throws: `StorageError.notFound` when `accountID` names no account; `.alreadyExists` for a duplicate hash.
  package func insertRefreshToken(_ token: RefreshTokenRecord) throws {
    try db.run(
      """
      INSERT INTO refresh_tokens (token_hash, family_id, account_id, profile, issued_at, expires_at, used_at, revoked)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """,
      [
        .blob(token.tokenHash), .text(token.familyID), .text(token.accountID), .text(token.profile),
        .integer(token.issuedAt), .integer(token.expiresAt), .integer(token.usedAt), .bool(token.revoked),
      ])
  }

  /// Marks the token used, once: the compare-and-set that makes rotation safe.
  /// - Returns: true only for a known, unused, unrevoked token. False means refuse the refresh; if the token
  ///   exists and was already used, that is reuse, and the caller revokes its family.
  package func markRefreshTokenUsed(hash: [UInt8], at time: Int64) throws -> Bool {
    try db.run(
      "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND revoked = 0",
      [.integer(time), .blob(hash)]) == 1
  }

  /// - Returns: how many tokens were newly revoked.
  @discardableResult
  package func revokeRefreshTokenFamily(_ familyID: String) throws -> Int {
    try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE family_id = ? AND revoked = 0", [.text(familyID)])
  }

  /// Revokes every token of an account (password change, account disabled).
  /// - Returns: how many tokens were newly revoked.
  @discardableResult
  package func revokeRefreshTokens(accountID: String) throws -> Int {
    try db.run("UPDATE refresh_tokens SET revoked = 1 WHERE account_id = ? AND revoked = 0", [.text(accountID)])
  }

  /// Deletes expired and revoked tokens: neither can ever be exchanged again, and a presented token that is no
  /// longer stored is refused exactly like a revoked one, so keeping them would only let the table grow with
  /// every login that replaced or ended a session.
  /// - Returns: how many were deleted.
  @discardableResult
  package func deleteSpentRefreshTokens(now: Int64) throws -> Int {
    try db.run("DELETE FROM refresh_tokens WHERE revoked = 1 OR expires_at <= ?", [.integer(now)])
  }
}
