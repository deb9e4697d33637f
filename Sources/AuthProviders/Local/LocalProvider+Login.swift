import AuthStorage
import AuthSupport

/// Password login against the embedded accounts, throttled per account (see `LoginThrottle`).
extension LocalProvider {
  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    // nil: the stored hash changed while it was checked (another login's rehash, or `users passwd` in another
    // process); check once more against the hash as it is now.
    for _ in 0..<2 {
      if let session = try await attemptLogin(account, password: password, profile: profile) { return session }
    }
    throw ProviderError(.invalidCredentials, "local login refused")
  }

  private func attemptLogin(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession? {
    // A blocked attempt is refused before the password is checked: no guessing while blocked.
    let (record, key, failuresBefore) = try await Blocking.run { [stores, clock] in
      try stores.get().read { tx -> (AccountRecord?, [UInt8], Int) in
        let record = try Self.find(account, in: tx)
        let key = LoginThrottle.key(for: account, naming: record)
        let throttle = try tx.loginThrottle(identifierHash: key)
        try LoginThrottle.admit(throttle, now: clock.nowMilliseconds())
        return (record, key, throttle?.failures ?? 0)
      }
    }
    // An unknown account is checked against a decoy with the same KDF cost, so that it takes
    // exactly as long as a wrong password (no timing oracle for which accounts exist).
    let encoded = try record?.passwordHash ?? hasher.decoyHash()
    let match: LocalPasswords.Match
    do {
      match = try await Blocking.runCPUBound { [passwords] in try passwords.verify(password, against: encoded) }
    } catch {
      try await recordFailure(key)  // an unreadable stored hash is no way around the count
      throw error
    }
    guard case .matched(let rehash) = match, let record, !record.disabled else {
      try await recordFailure(key)
      throw ProviderError(.invalidCredentials, "local login refused")
    }
    try Task.checkCancellation()  // cancelled during the KDF: issue nothing
    let authenticator = try await hasAuthenticator(record.id)
    let channel = authenticator ? nil : stepUpChannel(account, record, failuresBefore: failuresBefore)
    if authenticator || channel != nil {
      // The password was right, so this attempt is no failure; the earlier ones stay counted until the second
      // step is passed (`verify` clears them).
      try await demandStepUp(record, channel: channel, account: account)
    }
    let newHash = rehash ? try await Blocking.runCPUBound { [passwords] in try passwords.hash(password) } : nil
    return try await Blocking.run { [stores, clock, issuer] in
      try stores.get().write { tx -> IssuedSession? in
        // Failures recorded while this password was checked may have blocked the account: answer like any blocked
        // attempt, or a correct guess among many sent at once would stand out from the wrong ones.
        try LoginThrottle.admit(try tx.loginThrottle(identifierHash: key), now: clock.nowMilliseconds())
        // The account may have changed while the password was checked: never log in to an account disabled or
        // removed meanwhile, and never write the old password's rehash over a new one.
        guard let current = try tx.account(id: record.id), !current.disabled else {
          throw ProviderError(.invalidCredentials, "local login refused")
        }
        guard current.passwordHash == record.passwordHash else { return nil }
        try tx.clearLoginThrottle(identifierHash: key)
        if let newHash {
          var updated = current
          updated.passwordHash = newHash
          try tx.updateAccount(updated)
        }
        let now = clock.now()
        // Rows no login can use any more go here, so a storm of logins leaves as many rows as there are sessions.
        try tx.deleteSpentRefreshTokens(now: now)
        try tx.deleteStaleLoginThrottles(
          updatedBefore: now - LoginThrottle.forgetAfterSeconds, below: LoginThrottle.lockAfterFailures)
        let minted = try issuer.mint(for: current, profile: profile, familyID: nil, now: now, in: tx)
        try tx.insertRefreshToken(minted.refreshRecord)
        return minted.session
      }
    }
  }

  /// Counts one failure, in a transaction of its own that reads and raises the count together, so processes
  /// failing at once each add one. A failure judged while the key is already blocked is not counted (as a blocked
  /// attempt is not) but is answered as blocked: the caller's `invalidCredentials` would tell it from a success.
  private func recordFailure(_ key: [UInt8]) async throws {
    try await Blocking.run { [stores, clock] in
      try stores.get().write { tx in
        let now = clock.nowMilliseconds()
        let previous = try tx.loginThrottle(identifierHash: key)
        try LoginThrottle.admit(previous, now: now)
        try tx.putLoginThrottle(LoginThrottle.afterFailure(previous, now: now), identifierHash: key, now: now / 1000)
      }
    }
  }

  static func find(_ account: LoginAccount, in tx: ReadTransaction) throws -> AccountRecord? {
    switch account.kind {
    case .username: return try tx.account(username: account.text)
    case .email: return try tx.account(email: account.text)
    case .phone: return try tx.account(phone: account.text)
    }
  }
}
