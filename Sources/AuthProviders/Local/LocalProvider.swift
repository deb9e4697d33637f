import AuthConfig
import AuthCrypto
import AuthStorage
import AuthSupport

/// The embedded accounts provider: users live in the store, passwords as KDF hashes, access
/// tokens are EdDSA JWTs, refresh tokens rotate on every use and a reused one revokes its family.
package final class LocalProvider: IdentityProvider {
  package let kind = ProviderKind.local

  let stores: LazyStore
  let clock: any Clock
  let random: any RandomSource
  let hasher: PasswordHasher
  let issuer: LocalTokenIssuer
  let codes: CodeBook
  let stepUpAfterFailures: Int?
  /// nil: no delivery configured, so no codes are sent (`unsupported`).
  let delivery: (any CodeDelivery)?
  let codeLog: IssuedCodeLog?

  /// - Parameters:
  ///   - codeDeliveryCommand: `local.codeDelivery.command`; nil sends no codes.
  ///   - codeLog: test mode only: keeps issued codes for `test.lastCode`.
  package init(
    stores: LazyStore, clock: any Clock, random: any RandomSource, hasher: PasswordHasher = .owasp,
    accessTokenTTLSeconds: Int, refreshTokenTTLDays: Int, codes: CodesConfig = .defaults,
    codeDeliveryCommand: [String]? = nil, log: Logger = .disabled, codeLog: IssuedCodeLog? = nil
  ) {
    self.stores = stores
    self.clock = clock
    self.random = random
    self.hasher = hasher
    issuer = LocalTokenIssuer(
      random: random, accessTokenTTL: Int64(accessTokenTTLSeconds), refreshTokenTTL: Int64(refreshTokenTTLDays) * 86_400)
    self.codes = CodeBook(
      random: random, length: codes.length, ttl: Int64(codes.ttlSeconds), cooldown: Int64(codes.resendCooldownSeconds),
      maxPerDay: codes.maxPerDay)
    stepUpAfterFailures = codes.requireAfterFailures
    delivery = codeDeliveryCommand.map { CommandCodeDelivery(argv: $0, log: log) }
    self.codeLog = codeLog
  }

  // MARK: - Login

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    // nil: the stored hash changed while it was checked (another login's rehash, or `users passwd` in another
    // process); check once more against the hash as it is now.
    for _ in 0..<2 {
      if let session = try await attemptLogin(account, password: password, profile: profile) { return session }
    }
    throw ProviderError(.invalidCredentials, "local login refused")
  }

  private func attemptLogin(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession? {
    let now = clock.now()
    // The attempt counts as a failure before its password is checked (a success clears it), in the transaction
    // that checks the block: concurrent guesses cannot all get in before the first of them has failed.
    let (blockedUntil, record, throttleKey, before) = try await Blocking.run { [stores] in
      try stores.get().write { tx -> (Int64?, AccountRecord?, [UInt8], LoginThrottleRecord?) in
        let record = try Self.find(account, in: tx)
        let key = LoginThrottle.key(for: account, naming: record)
        let throttle = try tx.loginThrottle(identifierHash: key)
        if let throttle, throttle.blockedUntil > now { return (throttle.blockedUntil, nil, key, throttle) }
        try tx.putLoginThrottle(LoginThrottle.afterFailure(throttle, now: now), identifierHash: key, now: now)
        return (nil, record, key, throttle)
      }
    }
    if let blockedUntil {
      throw ProviderError(.rateLimited(retryAfter: blockedUntil - now), "login blocked after failures")
    }
    // An unknown account is checked against a decoy with the same KDF cost, so that it takes
    // exactly as long as a wrong password (no timing oracle for which accounts exist).
    let encoded = try record?.passwordHash ?? hasher.decoyHash()
    let matches = try await Blocking.run { [hasher] in try hasher.verify(password: password, encoded: encoded) }
    guard matches, let record, !record.disabled else { throw ProviderError(.invalidCredentials, "local login refused") }
    try Task.checkCancellation()  // cancelled during the KDF: issue nothing
    let authenticator = try await hasAuthenticator(record.id)
    let channel = authenticator ? nil : stepUpChannel(account, record, failuresBefore: before?.failures ?? 0)
    if authenticator || channel != nil {
      // The password was right: this attempt is not one more failure, but the earlier ones stay counted until
      // the second step is passed (`verify` clears them).
      try await restoreThrottle(before, key: throttleKey, now: now)
      try await demandStepUp(record, channel: channel, account: account)
    }
    let rehash = hasher.needsRehash(record.passwordHash) ? try await hashOffPool(password) : nil
    return try await Blocking.run { [stores, issuer] in
      try stores.get().write { tx -> IssuedSession? in
        // The account may have changed while the password was checked: never log in to an account disabled or
        // removed meanwhile, and never write the old password's rehash over a new one.
        guard let current = try tx.account(id: record.id), !current.disabled else {
          throw ProviderError(.invalidCredentials, "local login refused")
        }
        guard current.passwordHash == record.passwordHash else { return nil }
        try tx.clearLoginThrottle(identifierHash: throttleKey)
        if let rehash {
          var updated = current
          updated.passwordHash = rehash
          try tx.updateAccount(updated)
        }
        let minted = try issuer.mint(for: current, profile: profile, familyID: nil, now: now, in: tx)
        try tx.insertRefreshToken(minted.refreshRecord)
        return minted.session
      }
    }
  }

  private func restoreThrottle(_ before: LoginThrottleRecord?, key: [UInt8], now: Int64) async throws {
    try await Blocking.run { [stores] in
      try stores.get().write { tx in
        if let before {
          try tx.putLoginThrottle(before, identifierHash: key, now: now)
        } else {
          try tx.clearLoginThrottle(identifierHash: key)
        }
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

  func hashOffPool(_ password: String) async throws -> String {
    try await Blocking.run { [hasher] in try hasher.hash(password: password) }
  }

  // MARK: - Registration

  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    let hash = try await hashOffPool(password)
    let id = try Self.accountID(try random.bytes(16))
    let account = AccountRecord(
      id: id, username: registration.username, email: registration.email, phone: registration.phone,
      displayName: registration.displayName, passwordHash: hash, createdAt: clock.now())
    do {
      try await Blocking.run { [stores] in try stores.get().write { try $0.insertAccount(account) } }
    } catch let error as StorageError where error.code == .alreadyExists {
      throw ProviderError(.alreadyExists(field: error.field), "account exists")
    }
    return Self.userInfo(account)
  }

  /// A UUID-shaped id (version 4 layout) from 16 random bytes.
  static func accountID(_ bytes: [UInt8]) throws -> String {
    var bytes = bytes
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = Array(Hex.lowercase(bytes))
    return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
  }

  static func userInfo(_ account: AccountRecord) -> UserInfo {
    UserInfo(
      id: account.id, username: account.username, email: account.email, phone: account.phone,
      displayName: account.displayName)
  }

  // MARK: - Refresh, revoke, user

  /// The rotation of `current`'s refresh token, for `SessionService` to run inside the transaction that stores
  /// the client's new session (see `LocalRotation` for why).
  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    guard let token = current.refreshToken else { throw ProviderError(.sessionRejected, "no refresh token") }
    let hash = RefreshTokenRecord.hash(of: token)
    let now = clock.now()
    return .rotation(
      LocalRotation { [issuer] tx in
        guard let record = try tx.refreshToken(hash: hash) else {
          return .failure(Self.rejected("unknown refresh token"))
        }
        if record.revoked { return .failure(Self.rejected("revoked refresh token")) }
        if record.usedAt != nil {
          // Reuse of a rotated token means it leaked or a client lost track: end the family.
          try tx.revokeRefreshTokenFamily(record.familyID)
          return .failure(Self.rejected("refresh token reused; family revoked"))
        }
        if record.expiresAt <= now { return .failure(Self.rejected("refresh token expired")) }
        guard let account = try tx.account(id: record.accountID), !account.disabled else {
          try tx.revokeRefreshTokenFamily(record.familyID)
          return .failure(Self.rejected("account removed or disabled"))
        }
        guard try tx.markRefreshTokenUsed(hash: hash, at: now) else {
          return .failure(Self.rejected("refresh token already used"))
        }
        let minted = try issuer.mint(for: account, profile: profile, familyID: record.familyID, now: now, in: tx)
        try tx.insertRefreshToken(minted.refreshRecord)
        return .success(minted.session)
      })
  }

  private static func rejected(_ reason: String) -> ProviderError { ProviderError(.sessionRejected, reason) }

  package func revoke(_ current: IssuedSession) async throws {
    guard let token = current.refreshToken else { return }
    let hash = RefreshTokenRecord.hash(of: token)
    try await Blocking.run { [stores] in
      try stores.get().write { tx in
        if let record = try tx.refreshToken(hash: hash) { try tx.revokeRefreshTokenFamily(record.familyID) }
      }
    }
  }

  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    let id = current.user.id
    let account = try await Blocking.run { [stores] in try stores.get().read { try $0.account(id: id) } }
    guard let account, !account.disabled else { throw ProviderError(.sessionRejected, "account removed or disabled") }
    return FetchedUser(Self.userInfo(account))
  }
}
