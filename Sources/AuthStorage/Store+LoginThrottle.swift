/// Consecutive failed logins per login identifier, for the `local` provider's slow-down.
///
/// Keyed by a hash of the normalized identifier, not by account, so unknown and known
/// accounts are throttled alike: the slow-down must not reveal which accounts exist.
package struct LoginThrottleRecord: Sendable, Equatable {
  package var failures: Int
  /// Unix seconds; attempts before then are refused without checking the password.
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
  package func putLoginThrottle(_ record: LoginThrottleRecord, identifierHash: [UInt8], now: Int64) throws {
    try db.run(
      "INSERT OR REPLACE INTO login_throttle (identifier_hash, failures, blocked_until, updated_at) VALUES (?, ?, ?, ?)",
      [.blob(identifierHash), .integer(Int64(record.failures)), .integer(record.blockedUntil), .integer(now)])
  }

  /// A successful login forgets the identifier's failures.
  package func clearLoginThrottle(identifierHash: [UInt8]) throws {
    try db.run("DELETE FROM login_throttle WHERE identifier_hash = ?", [.blob(identifierHash)])
  }
}
