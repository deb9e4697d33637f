import AuthCrypto
import AuthStorage

/// The slow-down after failed logins: after 5 consecutive failures for one account, each further
/// attempt must wait 1 s, then 2 s, 4 s, … up to 5 minutes; after 100 the account is locked until its password
/// changes or `users unlock` (NIST SP 800-63B allows at most 100 consecutive failures: a capped delay alone
/// would grant about 288 guesses a day forever).
///
/// Counted per account whichever identifier names it (username, email or phone share one count, so
/// switching identifiers buys no extra guesses), and per identifier for names no account has, so
/// unknown names are slowed down and locked exactly like known ones and the answer never tells which exist.
///
/// An attempt is judged twice: before its password is checked (a blocked one is refused without checking), and
/// after, in the transaction that records its outcome. Only that second look counts, so simultaneous correct
/// logins never refuse each other; and an attempt that finds the identifier blocked by then is answered like a
/// blocked one whatever its password, so guesses sent all at once learn no more than sequential ones would.
enum LoginThrottle {
  static let freeFailures = 5
  static let maximumDelayMilliseconds: Int64 = 300_000
  static let lockAfterFailures = 100
  /// A count below the lock that nobody added to for this long is forgotten: otherwise every name anyone ever tried
  /// keeps a row forever. Thirty days leaves a patient guesser about three guesses a day.
  static let forgetAfterSeconds: Int64 = 30 * 86_400

  /// The key failures are counted under: the account's when `account` names one, else the identifier's canonical
  /// form, the same one the account lookup compares (`IdentifierKey`).
  static func key(for account: LoginAccount, naming record: AccountRecord?) -> [UInt8] {
    if let record { return key(of: record) }
    let text = account.kind == .phone ? account.text : IdentifierKey.of(account.text)
    return SHA256.hash(Array("\(account.kind.rawValue):\(text)".utf8))
  }

  /// The account's own key, shared by all its identifiers.
  static func key(of account: AccountRecord) -> [UInt8] { SHA256.hash(Array("account:\(account.id)".utf8)) }

  /// The failure record after one more failure at `now` (Unix milliseconds).
  static func afterFailure(_ previous: LoginThrottleRecord?, now: Int64) -> LoginThrottleRecord {
    let failures = (previous?.failures ?? 0) + 1
    guard failures >= freeFailures else { return LoginThrottleRecord(failures: failures, blockedUntil: 0) }
    let exponent = min(failures - freeFailures, 16)
    let delay = min(Int64(1000) << exponent, maximumDelayMilliseconds)
    return LoginThrottleRecord(failures: failures, blockedUntil: now + delay)
  }

  /// Throws the refusal when `record` blocks an attempt at `now` (Unix milliseconds); `locks: false` for a count
  /// that only ever slows down (registration).
  /// - Throws: `ProviderError` `.locked` at the hard limit, else `.rateLimited` with the wait in whole seconds,
  ///   rounded up so that a host waiting that long finds the block over.
  static func admit(_ record: LoginThrottleRecord?, now: Int64, locks: Bool = true) throws(ProviderError) {
    guard let record else { return }
    if locks, record.failures >= lockAfterFailures { throw ProviderError(.locked, "locked after repeated failures") }
    guard record.blockedUntil > now else { return }
    let retryAfter = (record.blockedUntil - now + 999) / 1000
    throw ProviderError(.rateLimited(retryAfter: retryAfter), "blocked after failures")
  }
}
