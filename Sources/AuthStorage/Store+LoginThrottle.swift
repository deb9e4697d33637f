/// Consecutive failed logins per login identifier, for the `local` provider's slow-down.
///
/// Keyed by a hash of the normalized identifier, not by account, so unknown and known
/// accounts are throttled alike: the slow-down must not reveal which accounts exist.
package struct LoginThrottleRecord: Sendable, Equatable {
  package var failures: Int
  /// Unix milliseconds; attempts before then are refused without checking the password. Milliseconds, because a
  /// block of "1 s" counted in whole seconds ends at the next whole second, which may be a millisecond away.
  package var blockedUntil: Int64

  package init(failures: Int, blockedUntil: Int64) {
    self.failures = failures
    self.blockedUntil = blockedUntil
  }
}

extension ReadTransaction {
  package func loginThrottle(identifierHash: [UInt8]) throws -> LoginThrottleRecord? {
    try db.row(
      "SELECT failures, blocked_until FROM login_throttle WHERE identifier_hash = ?", [.blob(identifierHash)]
    ) { LoginThrottleRecord(failures: Int($0.integer(0)), blockedUntil: $0.integer(1)) }
  }
}

extension WriteTransaction {
  /// - Parameter now: Unix seconds, kept to find rows nobody used for long (`deleteStaleLoginThrottles`).
  package func putLoginThrottle(_ record: LoginThrottleRecord, identifierHash: [UInt8], now: Int64) throws {
    try db.run(
      "INSERT OR REPLACE INTO login_throttle (identifier_hash, failures, blocked_until, updated_at) VALUES (?, ?, ?, ?)",
      [.blob(identifierHash), .integer(Int64(record.failures)), .integer(record.blockedUntil), .integer(now)])
  }

  /// A successful login forgets the identifier's failures.
  package func clearLoginThrottle(identifierHash: [UInt8]) throws {
    try db.run("DELETE FROM login_throttle WHERE identifier_hash = ?", [.blob(identifierHash)])
  }

  /// Forgets failure counts below `failures` last touched before `updatedBefore` (Unix seconds): the table holds a
  /// row for every name anyone ever tried, so without this it grows with every guessed name. Rows at or above
  /// `failures` (a locked account or name) stay: forgetting them would lift the lock.
  /// - Returns: how many were deleted.
  @discardableResult
  package func deleteStaleLoginThrottles(updatedBefore: Int64, below failures: Int) throws -> Int {
    try db.run(
      "DELETE FROM login_throttle WHERE updated_at < ? AND failures < ?",
      [.integer(updatedBefore), .integer(Int64(failures))])
  }
}
