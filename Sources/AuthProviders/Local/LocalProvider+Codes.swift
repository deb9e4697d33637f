import AuthCrypto
import AuthStorage
import AuthSupport

/// `sendCode`, `login {account, code}` and `resetPassword` on the embedded accounts. An identifier no account has
/// goes through the same transaction, the same hashing and (when it is an address) a real delivery, so neither
/// the answer nor its time tells whether the account exists.
extension LocalProvider {
  package var codeFlows: [CodeFlow] {
    delivery == nil ? [.verify] : [.sendCode, .loginWithCode, .verify, .resetPassword]
  }

  package func sendCode(_ request: CodeRequest, profile: String) async throws -> SentCode {
    guard let delivery else { throw ProviderError(.unsupported, "no local.codeDelivery configured") }
    switch request.target {
    case .challenge(let challenge):
      return try await resendStepUpCode(challenge, via: delivery)
    case .account(let account):
      let (pending, typed) = try await issueCode(for: account, request.purpose, request.channel)
      try await deliver(pending, via: delivery)
      return SentCode(
        sentTo: pending.sentTo(typed: typed), channel: pending.channel, resendAt: pending.resendAt,
        expiresAt: pending.expiresAt)
    }
  }

  private func issueCode(for account: LoginAccount, _ purpose: CodePurpose, _ channel: CodeChannel?) async throws
    -> (PendingCode, String)
  {
    let now = clock.now()
    let pending = try await Blocking.run { [stores, codes] in
      try stores.get().write { tx -> PendingCode in
        let record = try Self.find(account, in: tx)
        let slot = CodeBook.slot(purpose, subject: Self.codeSubject(account, record))
        try codes.checkLimits(sendSlot: slot, now: now, in: tx)
        let channel = channel ?? Self.defaultChannel(account, record)
        let (code, expiresAt) = try codes.issue(slot: slot, sendSlot: slot, now: now, in: tx)
        return PendingCode(
          code: code, to: Self.destination(channel, account, record), channel: channel, purpose: purpose,
          expiresAt: expiresAt, sentAt: now, resendAt: now + codes.cooldown, slot: slot, sendSlot: slot,
          names: [account.text] + (record.map { [$0.username] } ?? []))
      }
    }
    // With no destination the mask is drawn from the identifier, shaped like a contact of the channel.
    let typed = account.kind == .username ? (pending.channel == .sms ? "+0000000000000" : "x@***") : account.text
    return (pending, typed)
  }

  package func login(_ account: LoginAccount, code: String, profile: String) async throws -> IssuedSession {
    let now = clock.now()
    return try await Blocking.run { [stores, codes, issuer] in
      try stores.get().write { tx -> Result<IssuedSession, ProviderError> in
        let record = try Self.find(account, in: tx)
        let slot = CodeBook.slot(.login, subject: Self.codeSubject(account, record))
        if let refusal = try codes.consume(code, slot: slot, now: now, in: tx) {
          return .failure(Self.refused(refusal))
        }
        guard let record, !record.disabled else { return .failure(Self.refused(.invalidCode)) }
        try tx.clearLoginThrottle(identifierHash: LoginThrottle.key(for: account, naming: record))
        let minted = try issuer.mint(for: record, profile: profile, familyID: nil, now: now, in: tx)
        try tx.insertRefreshToken(minted.refreshRecord)
        return .success(minted.session)
      }
    }.get()
  }

  /// The new password is hashed before the code is checked, for known and unknown accounts alike: the KDF is
  /// the slow part, and doing it only for real accounts would time their existence.
  package func resetPassword(_ account: LoginAccount, code: String, newPassword: String, profile: String)
    async throws -> PasswordReset
  {
    let newHash = try await Blocking.runCPUBound { [passwords] in try passwords.hash(newPassword) }
    let now = clock.now()
    return try await Blocking.run { [stores, codes] in
      try stores.get().write { tx -> Result<PasswordReset, ProviderError> in
        let record = try Self.find(account, in: tx)
        let slot = CodeBook.slot(.resetPassword, subject: Self.codeSubject(account, record))
        if let refusal = try codes.consume(code, slot: slot, now: now, in: tx) {
          return .failure(Self.refused(refusal))
        }
        guard var updated = record, !updated.disabled else { return .failure(Self.refused(.invalidCode)) }
        updated.passwordHash = newHash
        try tx.updateAccount(updated)
        // Whoever held the old password may hold its sessions: every refresh-token family ends here, and
        // SessionService ends the stored sessions. The failures counted against the old password are forgotten.
        try tx.revokeRefreshTokens(accountID: updated.id)
        try tx.clearLoginThrottle(identifierHash: LoginThrottle.key(for: account, naming: updated))
        return .success(PasswordReset(user: Self.userInfo(updated)))
      }
    }.get()
  }

  static func refused(_ refusal: CodeRefusal) -> ProviderError {
    ProviderError(.codeRefused(refusal), "code not accepted")
  }
}
