import AuthConfig
import AuthProviders
import AuthSupport

/// One-time codes: sending them, logging in with them, completing a step-up, resetting a password. The provider
/// checks the code and returns values; the sessions those flows start or end are written here, as for a password.
extension SessionService {
  /// The local provider keeps its cooldown and daily cap in the transaction that issues the code. A remote API's
  /// own may be shorter, missing, or kept per server instance, so a `rest` profile's `codes` limits are also kept
  /// here, in the store: they hold across restarts and processes sharing it, and a send they refuse never reaches
  /// the server.
  package func sendCode(profile name: String, _ request: CodeRequest) async throws -> SentCode {
    let home = try profile(name)
    guard home.provider.kind == .rest else { return try await home.provider.sendCode(request, profile: name) }
    let codes = home.config.codes
    let limits = CodeSendLimits(cooldown: Int64(codes.resendCooldownSeconds), maxPerDay: codes.maxPerDay)
    let slot = CodeSendLimits.slot(profile: name, request)
    let now = clock.now()
    try await Blocking.run { [stores] in
      try stores.get().write { tx in
        try limits.check(try tx.codeSends(slot: slot, since: now - CodeSendLimits.window + 1), now: now)
        try tx.recordCodeSend(slot: slot, now: now, forgetBefore: now - CodeSendLimits.window)
      }
    }
    do {
      var sent = try await home.provider.sendCode(request, profile: name)
      sent.resendAt = max(sent.resendAt, now + limits.cooldown)
      return sent
    } catch {
      // Nothing was sent (refused, too soon at the server, unreachable): the send is given back.
      try? await Blocking.run { [stores] in try stores.get().write { try $0.forgetCodeSend(slot: slot, at: now) } }
      throw error
    }
  }

  package func login(profile name: String, account: LoginAccount, code: String) async throws -> SessionSnapshot {
    let issued = try await profile(name).provider.login(account, code: code, profile: name)
    return try await begin(issued, profile: name, lastAccount: account.text)
  }

  /// The second step of a login that answered `verification_required`.
  package func verify(profile name: String, challenge: String, code: String) async throws -> SessionSnapshot {
    let issued = try await profile(name).provider.verify(challenge: challenge, code: code, profile: name)
    return try await begin(issued, profile: name, lastAccount: issued.user.username)
  }

  /// Sets a new password, then ends every stored session of that account: whoever knew the old password (the
  /// reason for most resets) must not stay logged in with it. The provider has already ended its side (the
  /// local provider revokes the account's refresh-token families).
  /// - Returns: the profiles whose session ended.
  @discardableResult
  package func resetPassword(profile name: String, account: LoginAccount, code: String, newPassword: String)
    async throws -> [String]
  {
    let home = try profile(name)
    let reset = try await home.provider.resetPassword(account, code: code, newPassword: newPassword, profile: name)
    let candidates = profileNames.filter { candidate in
      (try? profile(candidate)).map { Self.sharesAccounts($0.config.provider, home.config.provider) } ?? false
    }
    var ended: [String] = []
    for (candidate, record) in zip(candidates, try await storedRecords(candidates)) {
      guard let record, let user = StoredSession(record)?.session.user, Self.isAccount(user, reset.user) else {
        continue
      }
      _ = try await endSession(candidate, generation: record.generation)
      ended.append(candidate)
    }
    if !ended.isEmpty { log.info("profile \(name): password reset ended \(ended.count) session(s)") }
    return ended
  }

  /// Whether two profiles may know the same account: every local profile does (they share the store's accounts);
  /// `rest` profiles only on one API (a user id or name on another server is another user); else only profiles of
  /// one provider config.
  static func sharesAccounts(_ one: ProviderConfig, _ other: ProviderConfig) -> Bool {
    switch (one, other) {
    case (.local, .local): true
    case (.rest(let a), .rest(let b)): a.baseURL == b.baseURL
    default: one == other
    }
  }

  /// Whether a stored session's user is the account a reset named: the same id, or the same username, email or
  /// phone — a remote reset API rarely answers with the user's id, only the identity the user typed is known.
  static func isAccount(_ user: UserInfo, _ reset: UserInfo) -> Bool {
    if user.id == reset.id || user.username == reset.username { return true }
    if let email = reset.email, user.email == email { return true }
    if let phone = reset.phone, user.phone == phone { return true }
    return false
  }
}
