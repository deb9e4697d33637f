import AuthCrypto

/// Authenticator apps (TOTP) enrolled on local accounts: the shared secret sealed like every secret, the last
/// time step accepted (so a code is accepted once), and the account's one-time recovery codes as keyed hashes.
extension ReadTransaction {
  /// The account's authenticator secret and the last step accepted; nil when none is enrolled.
  package func authenticator(accountID: String) throws -> (secret: SecretBytes, lastStep: Int64)? {
    let row = try db.row("SELECT secret, last_step FROM authenticators WHERE account_id = ?", [.text(accountID)]) {
      ($0.blob(0), $0.integer(1))
    }
    guard let (sealed, lastStep) = row else { return nil }
    return (try sealer.openSecret(sealed, "authenticators", "secret", row: accountID), lastStep)
  }
}

extension WriteTransaction {
  /// Enrolls (or replaces) the account's authenticator and its recovery codes.
  package func putAuthenticator(accountID: String, secret: SecretBytes, recoveryCodeHashes: [[UInt8]]) throws {
    let sealed = try sealer.seal(secret, "authenticators", "secret", row: accountID)
    try db.run(
      "INSERT OR REPLACE INTO authenticators (account_id, secret, last_step) VALUES (?, ?, 0)",
      [.text(accountID), .blob(sealed)])
    try db.run("DELETE FROM recovery_codes WHERE account_id = ?", [.text(accountID)])
    for hash in recoveryCodeHashes {
      try db.run("INSERT INTO recovery_codes (account_id, code_hash) VALUES (?, ?)", [.text(accountID), .blob(hash)])
    }
  }

  /// - Returns: whether an authenticator was enrolled.
  @discardableResult
  package func deleteAuthenticator(accountID: String) throws -> Bool {
    try db.run("DELETE FROM recovery_codes WHERE account_id = ?", [.text(accountID)])
    return try db.run("DELETE FROM authenticators WHERE account_id = ?", [.text(accountID)]) > 0
  }

  /// Moves the last accepted step forward, once: the compare-and-set that makes a code single-use across
  /// processes. - Returns: false when `step` (or a later one) was already used.
  package func acceptAuthenticatorStep(accountID: String, step: Int64) throws -> Bool {
    try db.run(
      "UPDATE authenticators SET last_step = ? WHERE account_id = ? AND last_step < ?",
      [.integer(step), .text(accountID), .integer(step)]) == 1
  }

  /// Uses a recovery code up. - Returns: whether the account had it.
  package func consumeRecoveryCode(accountID: String, hash: [UInt8]) throws -> Bool {
    try db.run(
      "DELETE FROM recovery_codes WHERE account_id = ? AND code_hash = ?", [.text(accountID), .blob(hash)]) == 1
  }
}
