/// Step-up challenges: a password login that passed but needs a code leaves one, stored by hash with the account
/// it is bound to, the methods it offers and the attempts spent on it.
package struct ChallengeRecord: Sendable, Equatable {
  package var accountID: String
  /// Comma-separated method names, in the order offered.
  package var methods: String
  /// The channel its code goes to (`sms`, `email`); nil when it offers only an authenticator.
  package var channel: String?
  /// Unix seconds.
  package var expiresAt: Int64
  package var attempts: Int

  package init(accountID: String, methods: String, channel: String?, expiresAt: Int64, attempts: Int = 0) {
    self.accountID = accountID
    self.methods = methods
    self.channel = channel
    self.expiresAt = expiresAt
    self.attempts = attempts
  }
}

extension ReadTransaction {
  package func challenge(hash: [UInt8]) throws -> ChallengeRecord? {
    try db.row(
      "SELECT account_id, methods, channel, expires_at, attempts FROM challenges WHERE challenge_hash = ?",
      [.blob(hash)]
    ) {
      ChallengeRecord(
        accountID: $0.text(0), methods: $0.text(1), channel: $0.optionalText(2), expiresAt: $0.integer(3),
        attempts: Int($0.integer(4)))
    }
  }
}

extension WriteTransaction {
  /// Stores a new challenge, and drops the expired ones (nothing can use them any more).
  package func insertChallenge(_ record: ChallengeRecord, hash: [UInt8], now: Int64) throws {
    try db.run("DELETE FROM challenges WHERE expires_at <= ?", [.integer(now)])
    try db.run(
      """
      INSERT INTO challenges (challenge_hash, account_id, methods, channel, expires_at, attempts)
      VALUES (?, ?, ?, ?, ?, ?)
      """,
      [
        .blob(hash), .text(record.accountID), .text(record.methods), .text(record.channel), .integer(record.expiresAt),
        .integer(Int64(record.attempts)),
      ])
  }

  package func spendChallengeAttempt(hash: [UInt8]) throws {
    try db.run("UPDATE challenges SET attempts = attempts + 1 WHERE challenge_hash = ?", [.blob(hash)])
  }

  @discardableResult
  package func deleteChallenge(hash: [UInt8]) throws -> Bool {
    try db.run("DELETE FROM challenges WHERE challenge_hash = ?", [.blob(hash)]) > 0
  }
}
