import AuthCrypto
import AuthStorage

/// The local provider's one-time codes in the store: issued under the resend cooldown and the daily cap, kept
/// only as an HMAC under a key that lives sealed in the store (a copy of the table alone cannot be brute-forced
/// offline, 10^6 codes being few), checked in constant time, at most `maxAttempts` tries, used once.
///
/// Every function runs inside the caller's write transaction, so a check and the attempt it spends, or a send and
/// the log entry that limits the next one, are one step for every process sharing the store.
struct CodeBook: Sendable {
  static let maxAttempts = 5
  private static let keyName = "local.codes.hmac"

  let random: any RandomSource
  let length: Int
  let ttl: Int64
  let cooldown: Int64
  let maxPerDay: Int

  /// Where a code is kept: one live code per purpose and subject (an account id, or an identifier no account
  /// has), or per step-up challenge. Hashed, so the table names no account.
  static func slot(_ purpose: CodePurpose, subject: String) -> [UInt8] {
    SHA256.hash(Array("code\u{0}\(purpose.rawValue)\u{0}\(subject)".utf8))
  }

  static func slot(challengeHash: [UInt8]) -> [UInt8] { SHA256.hash(Array("challenge\u{0}".utf8) + challengeHash) }

  /// Refuses a send inside the cooldown or past the daily cap of `sendSlot`.
  /// - Throws: `ProviderError.codeRateLimited` with when the next send is allowed.
  func checkLimits(sendSlot: [UInt8], now: Int64, in tx: ReadTransaction) throws {
    let sends = try tx.codeSends(slot: sendSlot, since: now - CodeSendLimits.window + 1)
    try CodeSendLimits(cooldown: cooldown, maxPerDay: maxPerDay).check(sends, now: now)
  }


  /// A fresh code for `slot`, replacing any earlier one, with the send logged under `sendSlot`.
  /// - Returns: the code in clear (for delivery only) and when it expires.
  func issue(slot: [UInt8], sendSlot: [UInt8], now: Int64, in tx: WriteTransaction) throws -> (String, Int64) {
    let code = try Self.digits(length, from: random)
    let expiresAt = now + ttl
    try tx.putCode(CodeRecord(codeHash: try hash(code, slot: slot, in: tx), expiresAt: expiresAt), slot: slot)
    try tx.recordCodeSend(slot: sendSlot, now: now, forgetBefore: now - CodeSendLimits.window)
    return (code, expiresAt)
  }

  /// Checks `code` against the slot's code, spending an attempt; a match uses the code up.
  /// - Returns: nil when accepted, else why not (returned, not thrown, so the spent attempt is committed).
  func consume(_ code: String, slot: [UInt8], now: Int64, in tx: WriteTransaction) throws -> CodeRefusal? {
    guard let record = try tx.code(slot: slot) else {
      _ = try hash(code, slot: slot, in: tx)  // the same work as a real check: no timing tells there was no code
      return .invalidCode
    }
    if record.expiresAt <= now {
      try tx.deleteCode(slot: slot)
      return .codeExpired
    }
    let matches = ConstantTime.equals(try hash(code, slot: slot, in: tx), record.codeHash)
    if matches || record.attempts + 1 >= Self.maxAttempts {
      try tx.deleteCode(slot: slot)
    } else {
      try tx.spendCodeAttempt(slot: slot)
    }
    return matches && record.attempts < Self.maxAttempts ? nil : .invalidCode
  }

  /// HMAC-SHA-256 of the code bound to its slot, so a code's hash is worthless for any other slot.
  private func hash(_ code: String, slot: [UInt8], in tx: WriteTransaction) throws -> [UInt8] {
    HMACSHA256.authenticate(slot + Array(code.utf8), key: try Self.key(tx))
  }

  /// The store's code key, created on first use: concurrent first uses in several processes are serialized by
  /// the write transaction, so all of them end up with one key.
  static func key(_ tx: WriteTransaction) throws -> SecretBytes {
    if let key = try tx.secret(named: keyName) { return key }
    let key = try SecretBytes(randomCount: 32)
    try tx.putSecret(key, named: keyName)
    return key
  }

  /// `count` uniform decimal digits: bytes at or above the largest multiple of 10 below 256 are dropped, so no
  /// digit is likelier than another.
  static func digits(_ count: Int, from random: any RandomSource) throws -> String {
    var digits: [UInt8] = []
    while digits.count < count {
      for byte in try random.bytes(count * 2) where byte < 250 && digits.count < count {
        digits.append(UInt8(ascii: "0") + byte % 10)
      }
    }
    return String(decoding: digits, as: UTF8.self)
  }
}
