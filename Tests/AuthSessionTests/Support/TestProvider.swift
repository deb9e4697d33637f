import AuthConfig
import AuthProviders
import AuthStorage
import Synchronization

/// A one-shot event tasks can wait for.
final class Signal: Sendable {
  private struct State {
    var fired = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  func fire() {
    let waiters = state.withLock { state in
      state.fired = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let fired = state.withLock { state in
        if state.fired { return true }
        state.waiters.append(continuation)
        return false
      }
      if fired { continuation.resume() }
    }
  }
}

/// The real local provider with one thing changed, for situations the local provider cannot produce by itself:
/// a refresh that waits for the test, a network that is down, a revocation that fails or hangs.
final class TestProvider: IdentityProvider {
  enum Revocation: Sendable {
    case local
    /// The server cannot be reached.
    case fails
    /// Never answers; gives up only when cancelled.
    case hangs
  }

  let base: LocalProvider
  /// Not the wrapped provider's kind, so `status` tests can tell that the provider's own kind is reported.
  let kind = ProviderKind.rest
  /// When set, a refresh fires `refreshStarted` and then waits for this before going to the local provider.
  let refreshGate: Signal?
  let refreshStarted = Signal()
  /// Thrown by refresh and fetchUser instead of asking the local provider.
  let networkFailure: ProviderError?
  let revocation: Revocation
  /// Access tokens the "server" has revoked: `fetchUser` refuses them as a resource server would (a 401).
  let revokedAccessTokens = Mutex<[[UInt8]]>([])
  /// The provider state `fetchUser` hands back (as the form provider does with its cookie jar).
  let stateAfterFetch: [UInt8]?
  /// The access tokens of the sessions `revoke` was asked to end, in order.
  let revokedSessions = Mutex<[[UInt8]]>([])
  let revokeStarted = Signal()
  /// When set, a revocation waits for this after `revokeStarted` (a replaced session's revocation runs in the
  /// background, so a test that needs it before or after something else holds it here).
  let revokeGate: Signal?
  /// Set when a `revoke` returned or threw.
  let revokeEnded = Mutex(false)
  /// How many times `refresh` reached the local provider.
  let refreshCount = Mutex(0)
  /// How many times `fetchUser` was asked.
  let fetchCount = Mutex(0)
  /// The access tokens `fetchUser` was asked with, in order.
  let fetchedWith = Mutex<[[UInt8]]>([])
  /// Whether `SessionService` may send a user fetch ahead of its read of the store (`IdentityProvider`).
  let fetchesUserAhead: Bool
  /// When set, `fetchUser` waits for this (after counting itself).
  let fetchGate: Signal?
  /// What `canRefresh` answers; nil: the default (a refresh token is there).
  let refreshable: Bool?
  /// When set, a login reports its tokens (`LoginProgress`) before its "user request", fires `userFetchStarted`,
  /// and waits for this; then fails with `userFetchFailure` if set.
  let userFetchGate: Signal?
  let userFetchStarted = Signal()
  let userFetchFailure: ProviderError?
  /// Whose session a pending user's token belongs to, as a server knows from the token (the local provider looks
  /// users up by id, which a pending user lacks).
  let pendingUserOwner: UserInfo?
  /// Runs once, at the first `fetchUser`, before the token is checked; returns tokens to revoke at the "server".
  private let onFirstFetch: Mutex<(@Sendable (IssuedSession) async throws -> [[UInt8]])?>

  init(
    _ base: LocalProvider, refreshGate: Signal? = nil, revokeGate: Signal? = nil, userFetchGate: Signal? = nil,
    userFetchFailure: ProviderError? = nil, pendingUserOwner: UserInfo? = nil, networkFailure: ProviderError? = nil, revocation: Revocation = .local, stateAfterFetch: [UInt8]? = nil,
    refreshable: Bool? = nil, onFirstFetch: (@Sendable (IssuedSession) async throws -> [[UInt8]])? = nil,
    fetchesUserAhead: Bool = false, fetchGate: Signal? = nil
  ) {
    self.fetchesUserAhead = fetchesUserAhead
    self.fetchGate = fetchGate
    self.onFirstFetch = Mutex(onFirstFetch)
    self.refreshable = refreshable
    self.base = base
    self.refreshGate = refreshGate
    self.revokeGate = revokeGate
    self.userFetchGate = userFetchGate
    self.userFetchFailure = userFetchFailure
    self.pendingUserOwner = pendingUserOwner
    self.networkFailure = networkFailure
    self.revocation = revocation
    self.stateAfterFetch = stateAfterFetch
  }

  func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    let session = try await base.login(account, password: password, profile: profile)
    guard let userFetchGate else { return session }
    var pending = session
    pending.user = .pending
    LoginProgress.report(pending)
    userFetchStarted.fire()
    await userFetchGate.wait()
    if let userFetchFailure { throw userFetchFailure }
    return session
  }

  func register(_ registration: Registration, password: String) async throws -> UserInfo {
    try await base.register(registration, password: password)
  }

  func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    if let refreshGate {
      refreshStarted.fire()
      await refreshGate.wait()
    }
    if let networkFailure { throw networkFailure }
    refreshCount.withLock { $0 += 1 }
    return try await base.refresh(current, profile: profile)
  }

  func revoke(_ current: IssuedSession) async throws {
    revokedSessions.withLock { $0.append(current.accessToken.withUnsafeBytes { Array($0) }) }
    revokeStarted.fire()
    await revokeGate?.wait()
    defer { revokeEnded.withLock { $0 = true } }
    switch revocation {
    case .local: try await base.revoke(current)
    case .fails: throw ProviderError(.networkUnavailable, "test: server unreachable")
    case .hangs: try await Task.sleep(for: .seconds(60))
    }
  }

  /// Returns once a revocation has returned or thrown (a replaced session's revocation runs in the background).
  func waitForRevocationToEnd() async throws {
    await revokeStarted.wait()
    while !revokeEnded.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
  }

  func canRefresh(_ session: IssuedSession) -> Bool { refreshable ?? (session.refreshToken != nil) }

  func fetchUser(_ current: IssuedSession) async throws -> FetchedUser {
    fetchCount.withLock { $0 += 1 }
    fetchedWith.withLock { $0.append(current.accessToken.withUnsafeBytes { Array($0) }) }
    await fetchGate?.wait()
    if let networkFailure { throw networkFailure }
    if let first = onFirstFetch.withLock({ hook in defer { hook = nil }; return hook }) {
      let revoked = try await first(current)
      revokedAccessTokens.withLock { $0.append(contentsOf: revoked) }
    }
    let token = current.accessToken.withUnsafeBytes { Array($0) }
    if revokedAccessTokens.withLock({ $0.contains(token) }) {
      throw ProviderError(.sessionRejected, "test: the access token was revoked at the server")
    }
    var asked = current
    if current.user == .pending, let pendingUserOwner { asked.user = pendingUserOwner }
    return FetchedUser(try await base.fetchUser(asked).user, providerState: stateAfterFetch)
  }
}

/// The local provider without its registration: what `IdentityProvider`'s default `register` answers.
struct WithoutRegistration: IdentityProvider {
  let base: LocalProvider
  let kind = ProviderKind.rest

  func login(_ account: LoginAccount, password: String, profile: String) async throws -> IssuedSession {
    try await base.login(account, password: password, profile: profile)
  }

  func refresh(_ current: IssuedSession, profile: String) async throws -> Refreshed {
    try await base.refresh(current, profile: profile)
  }

  func revoke(_ current: IssuedSession) async throws { try await base.revoke(current) }

  func fetchUser(_ current: IssuedSession) async throws -> FetchedUser { try await base.fetchUser(current) }
}
