import AuthCrypto

/// The resend cooldown and the daily cap of `sendCode`, judged from the times of the earlier sends for one account
/// and purpose (or one step-up). The send times live in the store, so the limits hold across restarts and across
/// processes sharing it; this type only decides.
package struct CodeSendLimits: Sendable {
  /// The daily cap counts the sends of the last 24 hours.
  package static let window: Int64 = 86_400

  package let cooldown: Int64
  package let maxPerDay: Int

  package init(cooldown: Int64, maxPerDay: Int) {
    self.cooldown = cooldown
    self.maxPerDay = maxPerDay
  }

  /// Refuses a send at `now` after `sends` (Unix seconds, oldest first, those of the last `window`).
  /// - Throws: `ProviderError.codeRateLimited` with when the next send is allowed.
  package func check(_ sends: [Int64], now: Int64) throws(ProviderError) {
    var resendAt = (sends.last ?? .min / 2) + cooldown
    // Past the cap, the next send is allowed when the oldest counted one leaves the 24-hour window.
    if sends.count >= maxPerDay { resendAt = max(resendAt, sends[sends.count - maxPerDay] + Self.window) }
    guard resendAt <= now else {
      throw ProviderError(.codeRateLimited(retryAfter: resendAt - now, resendAt: resendAt), "code send too soon")
    }
  }

  /// Where a remote profile's sends to one target are logged: hashed, so the table names no account or challenge.
  package static func slot(profile: String, _ request: CodeRequest) -> [UInt8] {
    switch request.target {
    case .account(let account):
      SHA256.hash(Array("send\u{0}\(profile)\u{0}\(request.purpose.rawValue)\u{0}\(account.text)".utf8))
    case .challenge(let challenge):
      SHA256.hash(Array("send\u{0}\(profile)\u{0}challenge\u{0}\(challenge)".utf8))
    }
  }
}
