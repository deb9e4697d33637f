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
  var passwords: LocalPasswords { LocalPasswords(hasher: hasher) }
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

  static func userInfo(_ account: AccountRecord) -> UserInfo {
    UserInfo(
      id: account.id, username: account.username, email: account.email, phone: account.phone,
      displayName: account.displayName)
  }

  private static func rejected(_ reason: String) -> ProviderError { ProviderError(.sessionRejected, reason) }

  /// Revokes the session's refresh-token family (the access token, a signed JWT, expires on its own).
  package func revoke(_ current: IssuedSession) async throws {
    guard case .inStore(let end) = retirement(of: current) else { return }
    try await Blocking.run { [stores] in try stores.get().write { try end($0) } }
  }

  /// The family's revocation, run by `SessionService` in the transaction that replaces or clears the session.
  package func retirement(of current: IssuedSession) -> Retirement {
    let hash = current.refreshToken.map(RefreshTokenRecord.hash(of:))
    return .inStore { tx in
      guard let hash, let record = try tx.refreshToken(hash: hash) else { return }
      try tx.revokeRefreshTokenFamily(record.familyID)
    }
  }

  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    let id = current.user.id
    let account = try await Blocking.run { [stores] in try stores.get().read { try $0.account(id: id) } }
    guard let account, !account.disabled else { throw ProviderError(.sessionRejected, "account removed or disabled") }
    return FetchedUser(Self.userInfo(account))
  }
}
