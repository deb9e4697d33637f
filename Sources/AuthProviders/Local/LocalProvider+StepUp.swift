import AuthCrypto
import AuthStorage
import AuthSupport

/// The second login step: after `codes.requireAfterFailures` failed password logins the account's next correct
/// password answers `verificationRequired` and a code goes to its phone or email. The challenge handed to the host
/// stands for the password already checked: random, stored only as its SHA-256, bound to the account, good for
/// `CodeBook.maxAttempts` codes and the code lifetime, used once.
extension LocalProvider {
  /// The channel a step-up code goes to, when the policy demands one for this login; nil when it does not.
  func stepUpChannel(_ account: LoginAccount, _ record: AccountRecord, failuresBefore: Int) -> CodeChannel? {
    guard let threshold = stepUpAfterFailures, failuresBefore >= threshold, delivery != nil else { return nil }
    let preferred: CodeChannel = account.kind == .email ? .email : .sms
    if Self.destination(preferred, account, record) != nil { return preferred }
    let other: CodeChannel = preferred == .sms ? .email : .sms
    // An account with no contact at all cannot receive a code; its login goes on without the second step.
    return Self.destination(other, account, record) != nil ? other : nil
  }

  /// Leaves a challenge, sends its code (for `channel`; nil: the account's authenticator answers it), and answers
  /// `verificationRequired`.
  func demandStepUp(_ record: AccountRecord, channel: CodeChannel?, account: LoginAccount) async throws -> Never {
    let challenge = Base64URL.encode(try random.bytes(32))
    let hash = SHA256.hash(Array(challenge.utf8))
    let now = clock.now()
    let methods: [VerificationMethod] = channel.map { [VerificationMethod($0)] } ?? [.totp, .recovery]
    let stored = ChallengeRecord(
      accountID: record.id, methods: methods.map(\.rawValue).joined(separator: ","), channel: channel?.rawValue,
      expiresAt: now + codes.ttl)
    let pending = try await Blocking.run { [stores] in
      try stores.get().write { tx -> Result<PendingCode, ProviderError>? in
        try tx.insertChallenge(stored, hash: hash, now: now)
        guard let channel else { return nil }
        return try self.issueStepUpCode(record, channel, challengeHash: hash, now: now, in: tx)
      }
    }
    var required = VerificationRequired(methods: methods, challenge: challenge, expiresAt: now + codes.ttl)
    switch pending {
    case nil: break
    case .success(let pending):
      if let delivery { try await deliver(pending, via: delivery) }
      required.sentTo = pending.sentTo(typed: account.text)
      required.resendAt = pending.resendAt
    case .failure(let limited):
      // Inside the cooldown no code goes out now; the challenge stands, and `sendCode {challenge}` sends one
      // once the cooldown is over.
      if case .codeRateLimited(_, let resendAt) = limited.code { required.resendAt = resendAt }
    }
    throw ProviderError(.verificationRequired(required), "second step required")
  }

  /// A step-up code, under the cooldown of the account's login codes (a challenge is no way around it).
  /// - Returns: the code to deliver, or the cooldown refusal (returned so the challenge is still committed).
  private func issueStepUpCode(
    _ record: AccountRecord, _ channel: CodeChannel, challengeHash: [UInt8], now: Int64, in tx: WriteTransaction
  ) throws -> Result<PendingCode, ProviderError> {
    let sendSlot = CodeBook.slot(.login, subject: "account:\(record.id)")
    do {
      try codes.checkLimits(sendSlot: sendSlot, now: now, in: tx)
    } catch let limited as ProviderError {
      return .failure(limited)
    }
    let slot = CodeBook.slot(challengeHash: challengeHash)
    let (code, expiresAt) = try codes.issue(slot: slot, sendSlot: sendSlot, now: now, in: tx)
    return .success(
      PendingCode(
        code: code, to: channel == .sms ? record.phone : record.email, channel: channel, purpose: .login,
        expiresAt: expiresAt, sentAt: now, resendAt: now + codes.cooldown, slot: slot, sendSlot: sendSlot,
        names: [record.username] + [record.email, record.phone].compactMap { $0 }))
  }

  /// `sendCode {challenge}`: the pending step-up's code again, to the same place, under the same cooldown.
  func resendStepUpCode(_ challenge: String, via delivery: any CodeDelivery) async throws -> SentCode {
    let hash = SHA256.hash(Array(challenge.utf8))
    let now = clock.now()
    let pending = try await Blocking.run { [stores] in
      try stores.get().write { tx -> PendingCode in
        guard let stored = try tx.challenge(hash: hash), stored.attempts < CodeBook.maxAttempts else {
          throw Self.refused(.invalidCode)
        }
        guard stored.expiresAt > now else { throw Self.refused(.codeExpired) }
        guard let channel = stored.channel.flatMap(CodeChannel.init(rawValue:)),
          let record = try tx.account(id: stored.accountID)
        else { throw ProviderError(.unsupported, "this challenge takes no sent code") }
        return try self.issueStepUpCode(record, channel, challengeHash: hash, now: now, in: tx).get()
      }
    }
    try await deliver(pending, via: delivery)
    return SentCode(
      sentTo: ContactMask.mask(pending.to ?? "***"), channel: pending.channel, resendAt: pending.resendAt,
      expiresAt: pending.expiresAt)
  }

  package func verify(challenge: String, code: String, profile: String) async throws -> IssuedSession {
    let hash = SHA256.hash(Array(challenge.utf8))
    let now = clock.now()
    return try await Blocking.run { [stores, issuer] in
      try stores.get().write { tx -> Result<IssuedSession, ProviderError> in
        guard let stored = try tx.challenge(hash: hash) else { return .failure(Self.refused(.invalidCode)) }
        guard stored.expiresAt > now else {
          try tx.deleteChallenge(hash: hash)
          return .failure(Self.refused(.codeExpired))
        }
        if let refusal = try self.checkSecondFactor(code, stored, challengeHash: hash, now: now, in: tx) {
          // The challenge survives a wrong code until its attempts run out.
          if stored.attempts + 1 >= CodeBook.maxAttempts {
            try tx.deleteChallenge(hash: hash)
          } else {
            try tx.spendChallengeAttempt(hash: hash)
          }
          return .failure(Self.refused(refusal))
        }
        try tx.deleteChallenge(hash: hash)
        guard let record = try tx.account(id: stored.accountID), !record.disabled else {
          return .failure(Self.refused(.invalidCode))
        }
        // Both steps passed: the failures that demanded the second one are forgotten.
        try tx.clearLoginThrottle(identifierHash: LoginThrottle.key(of: record))
        let minted = try issuer.mint(for: record, profile: profile, familyID: nil, now: now, in: tx)
        try tx.insertRefreshToken(minted.refreshRecord)
        return .success(minted.session)
      }
    }.get()
  }

  /// nil when `code` answers one of the challenge's methods.
  private func checkSecondFactor(
    _ code: String, _ stored: ChallengeRecord, challengeHash: [UInt8], now: Int64, in tx: WriteTransaction
  ) throws -> CodeRefusal? {
    guard stored.attempts < CodeBook.maxAttempts else { return .invalidCode }
    if stored.methods.split(separator: ",").contains(Substring(VerificationMethod.totp.rawValue)) {
      let accepted =
        try acceptAuthenticatorCode(code, accountID: stored.accountID, now: now, in: tx)
        || acceptRecoveryCode(code, accountID: stored.accountID, in: tx)
      return accepted ? nil : .invalidCode
    }
    return try codes.consume(code, slot: CodeBook.slot(challengeHash: challengeHash), now: now, in: tx)
  }
}
