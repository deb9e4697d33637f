import AuthCrypto
import AuthStorage

/// The slow-down after failed logins: after 5 consecutive failures for one account, each further
/// attempt must wait 1 s, then 2 s, 4 s, … up to 5 minutes.
///
/// Counted per account whichever identifier names it (username, email or phone share one count, so
/// switching identifiers buys no extra guesses), and per identifier for names no account has, so
/// unknown names are slowed down exactly like known ones and the answer never tells which exist.
/// A blocked attempt is refused before the password is checked: no guessing while blocked.
enum LoginThrottle {
  static let freeFailures = 5
  static let maximumDelay: Int64 = 300

  /// The key failures are counted under: the account's when `account` names one, else the identifier's.
  static func key(for account: LoginAccount, naming record: AccountRecord?) -> [UInt8] {
    if let record { return key(of: record) }
    return SHA256.hash(Array("\(account.kind.rawValue):\(account.text.lowercased())".utf8))
  }

  /// The key of an account's failures, whichever identifier named it.
  static func key(of record: AccountRecord) -> [UInt8] { SHA256.hash(Array("account:\(record.id)".utf8)) }

  /// The failure record after one more failure at `now`.
  static func afterFailure(_ previous: LoginThrottleRecord?, now: Int64) -> LoginThrottleRecord {
    let failures = (previous?.failures ?? 0) + 1
    guard failures >= freeFailures else { return LoginThrottleRecord(failures: failures, blockedUntil: 0) }
    let exponent = min(failures - freeFailures, 16)
    return LoginThrottleRecord(failures: failures, blockedUntil: now + min(Int64(1) << exponent, maximumDelay))
  }
}
