import AuthConfig
import AuthProviders
import AuthStorage
import AuthSupport
import Synchronization

/// The client side of every profile: logs in, keeps sessions, refreshes them safely, logs out.
///
/// It is the one owner of the stored sessions: providers are handed a decoded session and return values, and
/// every write of a session happens here (`SessionService+Store.swift`), checked against the profile's
/// generation so a late answer never overwrites a newer login or resurrects a logged-out session.
///
/// Refresh is single-flight twice over: concurrent callers in this process share one task, and across
/// processes the profile's lock is held across re-read → refresh → durable write, so a process that waited
/// re-reads and adopts the token another one just obtained instead of spending the (rotated) refresh token
/// again (`SessionService+Refresh.swift`).
package final class SessionService: Sendable {
  /// A class: every request looks its profile up, and a copy of a struct this size retains and releases each of the
  /// config's many fields (tens of microseconds a request), where a reference is one retain.
  package final class Profile: Sendable {
    package let config: ProfileConfig
    package let provider: any IdentityProvider

    package init(config: ProfileConfig, provider: any IdentityProvider) {
      self.config = config
      self.provider = provider
    }
  }

  let stores: LazyStore
  let clock: any Clock
  let log: Logger
  /// How long a logout waits for the provider to revoke before clearing locally anyway.
  let revokeTimeout: Duration
  /// The refresh task in flight per profile, shared by every caller in this process.
  let refreshes = Mutex<[String: Task<StoredSession, any Error>]>([:])
  /// Per profile: a login's user write still running after its answer (`complete`).
  let userWrites = Mutex<[String: Completion]>([:])
  /// Per profile: the session this process last read or stored, for a user fetch sent ahead of the store's read
  /// (`SessionService+FetchAhead.swift`).
  let sessionsSeen = Mutex<[String: SeenSession]>([:])
  /// The executor of the thread that waits for providers' answers, if any: a login's early write of its tokens runs
  /// there (`SessionService+EarlyTokens.swift`), and a user fetch sent ahead; nil: the global pool.
  let networkThreadExecutor: @Sendable () -> (any TaskExecutor)?
  private let profiles: [String: Profile]
  private let notify: @Sendable (SessionChanged) -> Void

  /// - Parameters:
  ///   - notify: sends a `sessionChanged` notification to the host.
  ///   - networkThreadExecutor: the executor of the thread that waits for providers' answers, if any: a login's
  ///     early write of its tokens then runs there once the user request is sent, on the thread that has nothing
  ///     else to do until the answer, instead of waking another one; a user fetch sent ahead runs there too.
  package init(
    stores: LazyStore, clock: any Clock, profiles: [String: Profile], log: Logger,
    revokeTimeout: Duration = .seconds(5),
    networkThreadExecutor: @escaping @Sendable () -> (any TaskExecutor)? = { nil },
    notify: @escaping @Sendable (SessionChanged) -> Void
  ) {
    self.stores = stores
    self.clock = clock
    self.profiles = profiles
    self.log = log
    self.revokeTimeout = revokeTimeout
    self.networkThreadExecutor = networkThreadExecutor
    self.notify = notify
  }

  package func profile(_ name: String) throws(SessionError) -> Profile {
    guard let profile = profiles[name] else { throw SessionError(.unknownProfile(name)) }
    return profile
  }

  package var profileNames: [String] { profiles.keys.sorted() }
  /// The store's protection level ("env-key" or "key-file"), opening the store if needed.
  package func storageProtection() throws -> String { try stores.get().protectionLevel.rawValue }

  func announce(_ name: String, _ state: SessionChange) { notify(SessionChanged(profile: name, state: state)) }

  // MARK: - Login, register

  /// Logs in with a password. When the provider's last request only fetches the user with the new tokens, the
  /// tokens are made durable while that request is out (`SessionService+EarlyTokens.swift`), and the user is added
  /// when it arrives; otherwise the session is stored in one durable write after the provider is done.
  package func login(profile name: String, account: LoginAccount, password: String) async throws -> SessionSnapshot {
    let provider = try profile(name).provider
    let early = EarlyTokens()
    let issued: IssuedSession
    do {
      issued = try await providerLogin(provider, account, password: password, profile: name, early: early)
    } catch {
      await abandon(early, profile: name, provider: provider)
      throw error
    }
    guard let stored = early.stored else { return try await begin(issued, profile: name, lastAccount: account.text) }
    // Cancelled while the provider worked: as `begin` stores nothing then, what was stored early is undone.
    if Task.isCancelled {
      await abandon(early, profile: name, provider: provider)
      throw CancellationError()
    }
    do {
      return try await complete(stored, with: issued, profile: name, provider: provider)
    } catch {
      // The tokens were not stored, or not durably: whatever step 1 committed is undone.
      await abandon(early, profile: name, provider: provider)
      throw error
    }
  }

  /// Logs in through a flow where the user acts elsewhere (see `IdentityProvider.interactiveLogin`); `prompt`
  /// gets what the host must show or open. Stored and announced like a password login.
  package func interactiveLogin(profile name: String, flow: LoginFlow, prompt: @escaping LoginPromptSink)
    async throws -> SessionSnapshot
  {
    let issued = try await profile(name).provider.interactiveLogin(flow, profile: name, prompt: prompt)
    return try await begin(issued, profile: name, lastAccount: issued.user.username)
  }

  /// Stores a new session (a new generation) and announces it.
  func begin(_ issued: IssuedSession, profile name: String, lastAccount: String) async throws
    -> SessionSnapshot
  {
    // Cancelled while the provider worked: nothing is stored, the answer is `cancelled`.
    try Task.checkCancellation()
    let (stored, replaced, _) = try await storeNewSession(issued, profile: name, lastAccount: lastAccount)
    noteSeen(stored)
    log.info("profile \(name): logged in")
    announce(name, .loggedIn)
    if let replaced {
      // Not awaited: the replaced session's revocation never delays the new login's answer.
      let provider = try profile(name).provider
      Task { [self] in _ = await revokeAtServer(replaced, by: provider, profile: name, what: "the replaced session") }
    }
    return SessionSnapshot(stored.session)
  }

  /// Creates an account with the profile's provider (`unsupported` for providers that cannot).
  package func register(profile name: String, _ registration: Registration, password: String) async throws -> UserInfo {
    try await profile(name).provider.register(registration, password: password)
  }

  // MARK: - Logout

  /// Clears locally, then revokes at the provider within `revokeTimeout` (best effort) with the tokens taken out
  /// of the store in the same transaction; the local provider revokes inside that transaction.
  ///
  /// Local first: a process killed between the two steps leaves the profile logged out. Revoking first would
  /// leave, after such a kill, a stored session whose refresh token is already revoked — reported as logged in
  /// until its next refresh fails with `session_expired`.
  /// - Returns: whether the provider confirmed the revocation.
  package func logout(profile name: String) async throws -> Bool {
    let provider = try profile(name).provider
    forgetSeen(name)
    guard let retired = try await takeSession(name, provider: provider) else { return false }
    log.info("profile \(name): logged out")
    announce(name, .loggedOut)
    switch retired {
    case .ended: return true
    case .unusable:
      log.warning("profile \(name): the stored session was unusable; nothing to revoke at the provider")
      return false
    case .revokeAtServer(let session):
      return await revokeAtServer(session, by: provider, profile: name, what: "the session")
    case .nothingToRevoke:
      // Documented behaviour, answered `revoked: false`; not a warning on every logout.
      log.debug("profile \(name): nothing revoked at the provider (it has no logout endpoint)")
      return false
    }
  }

  /// Revokes `session` at the provider's server within `revokeTimeout`, best effort. The log names the profile,
  /// never a token.
  /// - Returns: whether the provider confirmed it.
  func revokeAtServer(_ session: IssuedSession, by provider: any IdentityProvider, profile name: String,
    what: String) async -> Bool
  {
    do {
      // nil: the deadline passed first.
      if try await withDeadline(revokeTimeout, { try await provider.revoke(session) }) != nil { return true }
    } catch let error as ProviderError where error.code == .unsupported {
      // A provider with nothing to revoke (a rest profile without a logout endpoint) is documented behaviour,
      // answered `revoked: false`; not a warning on every logout.
      log.debug("profile \(name): nothing revoked at the provider (\(error.detail))")
      return false
    } catch {}
    log.warning("profile \(name): revocation of \(what) at the provider did not complete")
    return false
  }

  // MARK: - Status

  package struct ProfileStatus: Sendable {
    package let name: String
    package let provider: ProviderKind
    /// `ProviderConfig.loginFlows`, less those the provider's server cannot serve (see `OfferedLoginFlows`).
    package let loginFlows: OfferedLoginFlows
    /// See `IdentityProvider.codeFlows`.
    package let codeFlows: [CodeFlow]
    package let loggedIn: Bool
    package let expiresAt: Int64?
    package let username: String?
  }

  package func status() async throws -> [ProfileStatus] {
    let names = profileNames
    let records = try await storedRecords(names)
    var statuses: [ProfileStatus] = []
    for (name, record) in zip(names, records) {
      let profile = profiles[name]!
      statuses.append(
        ProfileStatus(
          name: name, provider: profile.provider.kind,
          loginFlows: await profile.provider.offeredLoginFlows(profile.config.provider.loginFlows),
          codeFlows: profile.provider.codeFlows, loggedIn: record != nil, expiresAt: record?.expiresAt,
          username: record.flatMap(StoredSession.init)?.session.user.knownUsername))
    }
    return statuses
  }
}
