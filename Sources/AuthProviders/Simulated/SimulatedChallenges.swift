import Synchronization

/// The second login steps the simulated server has asked for, kept in this process's memory only (a simulated
/// server forgets them when the sidecar stops): the account each stands for, when it expires, when a code may be
/// sent again, and the wrong codes tried.
package final class SimulatedChallenges: Sendable {
  /// As long as a real code is usually accepted, and as long as a new one must wait.
  package static let lifetime: Int64 = 300
  package static let resendCooldown: Int64 = 60
  /// Wrong codes a challenge survives, as the local provider's do.
  package static let maxAttempts = 5

  struct Pending: Sendable {
    var account: LoginAccount
    var expiresAt: Int64
    var resendAt: Int64
    var attempts = 0

    var channel: CodeChannel { account.kind == .phone ? .sms : .email }
  }

  private let pending = Mutex<[String: Pending]>([:])

  /// Opens a challenge for `account` at `now` whose code is "sent" at once.
  package func open(_ challenge: String, for account: LoginAccount, now: Int64) -> VerificationRequired {
    let entry = Pending(account: account, expiresAt: now + Self.lifetime, resendAt: now + Self.resendCooldown)
    pending.withLock { $0[challenge] = entry }
    return VerificationRequired(
      methods: [VerificationMethod(entry.channel)], challenge: challenge, expiresAt: entry.expiresAt,
      sentTo: ContactMask.mask(account.text), resendAt: entry.resendAt)
  }

  /// Spends the challenge when `accepted` says the code is right.
  /// - Returns: the account the challenge stands for.
  /// - Throws: `ProviderError.codeRefused` for an unknown, spent or expired challenge or a wrong code.
  package func complete(_ challenge: String, now: Int64, accepted: Bool) throws(ProviderError) -> LoginAccount {
    try pending.withLock { (all) throws(ProviderError) -> LoginAccount in
      guard var entry = all[challenge] else { throw Self.refused(.invalidCode, "unknown challenge") }
      guard now < entry.expiresAt else {
        all[challenge] = nil
        throw Self.refused(.codeExpired, "challenge expired")
      }
      guard accepted else {
        entry.attempts += 1
        all[challenge] = entry.attempts < Self.maxAttempts ? entry : nil
        throw Self.refused(.invalidCode, "wrong code")
      }
      all[challenge] = nil
      return entry.account
    }
  }

  /// `sendCode {challenge}`: the code again, once the cooldown is over.
  /// - Throws: `ProviderError.codeRateLimited` inside the cooldown, `codeRefused` for an unknown or expired one.
  package func resend(_ challenge: String, now: Int64) throws(ProviderError) -> SentCode {
    try pending.withLock { (all) throws(ProviderError) -> SentCode in
      guard var entry = all[challenge], now < entry.expiresAt else {
        throw Self.refused(.invalidCode, "unknown or expired challenge")
      }
      guard entry.resendAt <= now else {
        throw ProviderError(
          .codeRateLimited(retryAfter: entry.resendAt - now, resendAt: entry.resendAt), "simulated: resend too soon")
      }
      entry.resendAt = now + Self.resendCooldown
      all[challenge] = entry
      return SentCode(
        sentTo: ContactMask.mask(entry.account.text), channel: entry.channel, resendAt: entry.resendAt,
        expiresAt: entry.expiresAt)
    }
  }

  private static func refused(_ refusal: CodeRefusal, _ detail: String) -> ProviderError {
    ProviderError(.codeRefused(refusal), "simulated: \(detail)")
  }
}
