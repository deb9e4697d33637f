/// One-time codes: at most one live code per slot (a hash of purpose and account, or of a step-up challenge),
/// stored as a keyed hash with its expiry and the attempts spent on it; and the log of sends per slot that the
/// resend cooldown and the daily cap are counted from. Both live in the store, so they hold across restarts and
/// across every process sharing it.
package struct CodeRecord: Sendable, Equatable {
  package var codeHash: [UInt8]
  /// Unix seconds.
  package var expiresAt: Int64
  package var attempts: Int

  package init(codeHash: [UInt8], expiresAt: Int64, attempts: Int = 0) {
    self.codeHash = codeHash
    self.expiresAt = expiresAt
    self.attempts = attempts
  }
}

extension ReadTransaction {
  package func code(slot: [UInt8]) throws -> CodeRecord? {
    try db.row("SELECT code_hash, expires_at, attempts FROM codes WHERE slot = ?", [.blob(slot)]) {
      CodeRecord(codeHash: $0.blob(0), expiresAt: $0.integer(1), attempts: Int($0.integer(2)))
    }
  }

  /// The send times of `slot` at or after `since`, oldest first.
  package func codeSends(slot: [UInt8], since: Int64) throws -> [Int64] {
    try db.rows(
      "SELECT sent_at FROM code_sends WHERE slot = ? AND sent_at >= ? ORDER BY sent_at", [.blob(slot), .integer(since)]
    ) { $0.integer(0) }
  }
}

extension WriteTransaction {
  /// Replaces the slot's code: a new send makes the previous code worthless.
  package func putCode(_ record: CodeRecord, slot: [UInt8]) throws {
    try db.run(
      "INSERT OR REPLACE INTO codes (slot, code_hash, expires_at, attempts) VALUES (?, ?, ?, ?)",
      [.blob(slot), .blob(record.codeHash), .integer(record.expiresAt), .integer(Int64(record.attempts))])
  }

  /// Counts one more attempt on the slot's code.
  package func spendCodeAttempt(slot: [UInt8]) throws {
    try db.run("UPDATE codes SET attempts = attempts + 1 WHERE slot = ?", [.blob(slot)])
  }

  /// - Returns: whether there was a code.
  @discardableResult
  package func deleteCode(slot: [UInt8]) throws -> Bool {
    try db.run("DELETE FROM codes WHERE slot = ?", [.blob(slot)]) > 0
  }

  /// Logs a send at `now`, and forgets sends older than `forgetBefore` (no limit counts them any more).
  package func recordCodeSend(slot: [UInt8], now: Int64, forgetBefore: Int64) throws {
    try db.run("DELETE FROM code_sends WHERE sent_at < ?", [.integer(forgetBefore)])
    try db.run("INSERT INTO code_sends (slot, sent_at) VALUES (?, ?)", [.blob(slot), .integer(now)])
  }
}

extension WriteTransaction {
  /// Takes back a send logged at `time` whose code could not be delivered: a failed delivery must not hold the
  /// user in the cooldown.
  package func forgetCodeSend(slot: [UInt8], at time: Int64) throws {
    try db.run("DELETE FROM code_sends WHERE slot = ? AND sent_at = ?", [.blob(slot), .integer(time)])
  }
}
