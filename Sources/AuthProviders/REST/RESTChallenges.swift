import AuthCrypto
import Synchronization

/// The step-ups this process has answered: which account each pending challenge is for. A resend
/// (`sendCode {challenge}`) can then say where the code goes, and a completed step-up names its user even when
/// the API's answer does not.
///
/// Memory only, keyed by a hash of the challenge, which is a secret and is not kept. A step-up begun in another
/// process (or before a restart) still completes — the server holds the real state — it only reports less.
final class RESTChallenges: Sendable {
  /// Enough for every login a person could be in the middle of; a flood of step-ups cannot grow it further.
  static let capacity = 1024

  private struct Entry {
    let account: LoginAccount
    let expiresAt: Int64
  }

  private let entries = Mutex<[[UInt8]: Entry]>([:])

  func remember(_ challenge: String, account: LoginAccount, until expiresAt: Int64, now: Int64) {
    let key = Self.key(challenge)
    entries.withLock { entries in
      entries = entries.filter { $0.value.expiresAt > now }
      if entries.count >= Self.capacity, let soonest = entries.min(by: { $0.value.expiresAt < $1.value.expiresAt }) {
        entries[soonest.key] = nil
      }
      entries[key] = Entry(account: account, expiresAt: expiresAt)
    }
  }

  /// The account of a challenge still pending; nil when unknown here or past its time.
  func account(for challenge: String, now: Int64) -> LoginAccount? {
    let key = Self.key(challenge)
    return entries.withLock { entries in
      guard let entry = entries[key], entry.expiresAt > now else { return nil }
      return entry.account
    }
  }

  /// A completed step-up's challenge is spent.
  func forget(_ challenge: String) {
    let key = Self.key(challenge)
    _ = entries.withLock { $0.removeValue(forKey: key) }
  }

  private static func key(_ challenge: String) -> [UInt8] { SHA256.hash(Array(challenge.utf8)) }
}
