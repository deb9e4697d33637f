import AuthConfig
import AuthCrypto
import AuthSupport

/// A made-up server for hosts' tests and demos, never for production: it checks no real password and keeps no
/// accounts. The account a test logs in with chooses the answer (`SimulatedAccount`, tabled in
/// docs/simulated-provider.md), so every error a login UI must show can be reached without a real server. It
/// returns values like any provider; `SessionService` stores the sessions.
package final class SimulatedProvider: IdentityProvider {
  package let kind = ProviderKind.simulated

  /// The one password the simulated server accepts.
  package static let password = "correct"
  /// The `retryAfter` of a `locked@…` login.
  package static let retryAfter: Int64 = 30
  /// The status of an `error@…` login's `server_error`.
  package static let serverErrorStatus = 503
  /// The lifetime of an ordinary session's access token.
  package static let sessionSeconds: Int64 = 3600
  /// How long after its login an `expiring@…` session falls due for refresh.
  package static let expiringAfterSeconds: Int64 = 60

  let time: SimulatedTime
  let tokens: SimulatedTokens
  let challenges = SimulatedChallenges()
  let timeoutSeconds: Int64
  let refreshMarginSeconds: Int64
  /// The code every simulated challenge accepts: the first `codes.length` digits of `1234567890`.
  let code: String

  /// - Parameters:
  ///   - random: nil in test mode: tokens are derived, the same every run.
  ///   - refreshMarginSeconds: the profile's, so an `expiring@…` session falls due exactly
  ///     `expiringAfterSeconds` after its login.
  package init(
    config: SimulatedProviderConfig, time: SimulatedTime, random: (any RandomSource)?, refreshMarginSeconds: Int,
    codeLength: Int
  ) {
    self.time = time
    tokens = SimulatedTokens(random: random)
    timeoutSeconds = Int64(config.timeoutSeconds)
    self.refreshMarginSeconds = Int64(refreshMarginSeconds)
    code = String("1234567890".prefix(codeLength))
  }

  package func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    let card = SimulatedAccount(account.text)
    try await failBeforePassword(card)
    guard password == Self.password else { throw ProviderError(.invalidCredentials, "simulated: wrong password") }
    if card == .mfa {
      let challenge = try tokens.mint("challenge", for: account.text)
      let required = challenges.open(challenge, for: account, now: time.clock.now())
      throw ProviderError(.verificationRequired(required), "simulated: second step required")
    }
    return try issue(Self.user(account), card)
  }

  /// The answers a card gives whatever the password, as a server that never got to check it would.
  private func failBeforePassword(_ card: SimulatedAccount) async throws {
    switch card {
    case .locked: throw ProviderError(.rateLimited(retryAfter: Self.retryAfter), "simulated: too many attempts")
    case .blocked: throw ProviderError(.locked, "simulated: account locked")
    case .unknown: throw ProviderError(.unknownAccount, "simulated: no such account")
    case .offline: throw ProviderError(.networkUnavailable, "simulated: server unreachable")
    case .slow:
      try await time.pass(timeoutSeconds)
      throw ProviderError(.timeout, "simulated: no answer within \(timeoutSeconds) s")
    case .error: throw ProviderError(.serverError(status: Self.serverErrorStatus), "simulated: server error")
    case .garbled: throw ProviderError(.badResponse, "simulated: unreadable answer")
    case .untrusted: throw ProviderError(.tlsError, "simulated: untrusted certificate")
    case .ordinary, .stale, .expiring, .mfa, .taken: return
    }
  }

  /// A new session for `user`: an `expiring@…` one falls due for refresh `expiringAfterSeconds` after now.
  func issue(_ user: UserInfo, _ card: SimulatedAccount) throws -> IssuedSession {
    let lifetime = card == .expiring ? refreshMarginSeconds + Self.expiringAfterSeconds : Self.sessionSeconds
    return IssuedSession(
      user: user, accessToken: try tokens.secret("access", for: user.username),
      refreshToken: try tokens.secret("refresh", for: user.username), expiresAt: time.clock.now() + lifetime)
  }

  /// The user an account stands for; its id is derived from the account, the same every run.
  static func user(_ account: LoginAccount) -> UserInfo {
    UserInfo(
      id: userID(account.text), username: account.text, email: account.kind == .email ? account.text : nil,
      phone: account.kind == .phone ? account.text : nil)
  }

  static func userID(_ name: String) -> String {
    "sim-" + Base64URL.encode(Array(SHA256.hash(Array(name.utf8)).prefix(9)))
  }

  // MARK: - Refresh, user, revoke

  package func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    let card = SimulatedAccount(current.user.username)
    switch card {
    case .expiring: throw ProviderError(.sessionRejected, "simulated: refresh refused")
    case .stale: throw ProviderError(.networkUnavailable, "simulated: server unreachable after login")
    default: return .issued(try issue(current.user, card))
    }
  }

  package func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    if SimulatedAccount(current.user.username) == .stale {
      throw ProviderError(.networkUnavailable, "simulated: server unreachable after login")
    }
    guard time.clock.now() < current.expiresAt else {
      throw ProviderError(.sessionRejected, "simulated: access token expired")
    }
    return FetchedUser(current.user)
  }

  /// Nothing to revoke: the simulated server keeps no sessions.
  package func revoke(_ current: IssuedSession) async throws {}

  package func register(_ registration: Registration, password: String) async throws -> UserInfo {
    if SimulatedAccount(registration.username) == .taken {
      throw ProviderError(.alreadyExists(field: "username"), "simulated: username taken")
    }
    if let email = registration.email, SimulatedAccount(email) == .taken {
      throw ProviderError(.alreadyExists(field: "email"), "simulated: email taken")
    }
    return UserInfo(
      id: Self.userID(registration.username), username: registration.username, email: registration.email,
      phone: registration.phone, displayName: registration.displayName)
  }
}
