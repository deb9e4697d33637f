import AuthCrypto
import AuthStorage

/// The slow-down after failed logins: after 5 consecutive failures for one login identifier,
/// each further attempt must wait 1 s, then 2 s, 4 s, … up to 5 minutes.
///
/// Counted per identifier, known or not, so the answer never tells whether an account exists.
/// A blocked attempt is refused before the password is checked: no guessing while blocked.
enum LoginThrottle {
  static let freeFailures = 5
  static let maximumDelay: Int64 = 300

  static func identifierHash(_ account: LoginAccount) -> [UInt8] {
    SHA256.hash(Array("\(account.kind.rawValue):\(account.text.lowercased())".utf8))
  }

  /// The failure record after one more failure at `now`.
  static func afterFailure(_ previous: LoginThrottleRecord?, now: Int64) -> LoginThrottleRecord {
    let failures = (previous?.failures ?? 0) + 1
    guard failures >= freeFailures else { return LoginThrottleRecord(failures: failures, blockedUntil: 0) }
    let exponent = min(failures - freeFailures, 16)
    return LoginThrottleRecord(failures: failures, blockedUntil: now + min(Int64(1) << exponent, maximumDelay))
  }
}
