import AuthConfig
import AuthCrypto
import AuthJSON
import AuthProviders
import AuthStorage
import AuthSupport
import Synchronization

/// The client side of every profile: stores sessions, refreshes them safely, logs out.
///
/// Refresh is single-flight twice over: concurrent callers in this process share one task,
/// and across processes the profile's lock is held across re-read → refresh → durable write,
/// so a process that waited re-reads and adopts the token another one just obtained instead
/// of spending the (rotated) refresh token again.
package final class SessionService: Sendable {
  package struct Profile: Sendable {
    package let config: ProfileConfig
    package let provider: any IdentityProvider

    package init(config: ProfileConfig, provider: any IdentityProvider) {
      self.config = config
      self.provider = provider
    }
  }

  private let stores: LazyStore
  private let clock: any Clock
  private let profiles: [String: Profile]
  private let notify: @Sendable (String, SessionChange) -> Void
  private let log: Logger
  /// The refresh task in flight per profile, shared by every caller in this process.
  private let refreshes = Mutex<[String: Task<SessionRecord, any Error>]>([:])
  /// How long a logout waits for the provider to revoke before clearing locally anyway.
  private let revokeTimeout: Duration

  package init(
    stores: LazyStore, clock: any Clock, profiles: [String: Profile], log: Logger, revokeTimeout: Duration = .seconds(5),
    notify: @escaping @Sendable (String, SessionChange) -> Void
  ) {
    self.stores = stores
    self.clock = clock
    self.profiles = profiles
    self.log = log
    self.revokeTimeout = revokeTimeout
    self.notify = notify
  }

  package func profile(_ name: String) throws(SessionError) -> Profile {
    guard let profile = profiles[name] else { throw SessionError(.unknownProfile(name)) }
    return profile
  }

  package var profileNames: [String] { profiles.keys.sorted() }
  /// The store's protection level ("env-key" or "key-file"), opening the store if needed.
  package func storageProtection() throws -> String { try stores.get().protectionLevel.rawValue }

  // MARK: - Login, register

  package func login(profile name: String, account: LoginAccount, password: String) async throws -> SessionSnapshot {
    let profile = try profile(name)
    let issued = try await profile.provider.login(account, password: password, profile: name)
    return try await begin(issued, profile: name, lastAccount: account.text)
  }

  /// Logs in through a flow where the user acts elsewhere (see `IdentityProvider.interactiveLogin`); `prompt`
  /// gets what the host must show or open. Stored and announced like a password login.
  package func interactiveLogin(profile name: String, flow: LoginFlow, prompt: @escaping LoginPromptSink)
    async throws -> SessionSnapshot
  {
    let profile = try profile(name)
    let issued = try await profile.provider.interactiveLogin(flow, profile: name, prompt: prompt)
    return try await begin(issued, profile: name, lastAccount: issued.user.username)
  }

  /// Stores a new session in one transaction (a new generation) and announces it.
  private func begin(_ issued: IssuedSession, profile name: String, lastAccount: String) async throws
    -> SessionSnapshot
  {
    // Cancelled while the provider worked: nothing is stored, the answer is `cancelled`.
    try Task.checkCancellation()
    let now = clock.now()
    let record = try await Blocking.run { [stores] in
      try stores.get().write { tx in
        var record = SessionRecord(issued, profile: name, generation: 0, now: now)
        record.generation = try tx.beginSession(record, lastAccount: lastAccount)
        return record
      }
    }
    log.info("profile \(name): logged in")
    notify(name, .loggedIn)
    return SessionSnapshot(record)
  }

  package func register(profile name: String, _ registration: Registration, password: String) async throws -> UserInfo {
    let profile = try profile(name)
    guard profile.provider.supportsRegistration else { throw SessionError(.unsupported) }
    return try await profile.provider.register(registration, password: password)
  }

  // MARK: - Reading and refreshing

  /// The stored session, refreshed first when it is inside the refresh margin. A transient
  /// network failure keeps the cached session and marks the answer `stale`.
  package func getUser(profile name: String, fetchFromServer: Bool) async throws -> (SessionSnapshot, stale: Bool) {
    let profile = try profile(name)
    var record = try await currentSession(name, profile)
    var stale = false
    if needsRefresh(record, profile) {
      do {
        record = try await refreshed(name, profile, force: false)
      } catch let error as ProviderError where error.isTransient {
        log.warning("profile \(name): refresh failed (\(error.code)); answering from the cache")
        stale = true
      }
    }
    if fetchFromServer {
      do {
        record = try await fetchAndCacheUser(name, record, profile)
      } catch let error as ProviderError where error.isTransient {
        log.warning("profile \(name): user fetch failed (\(error.code)); answering from the cache")
        stale = true
      } catch let error as ProviderError where error.code == .sessionRejected {
        // The server refused an access token our clock still calls valid: it was revoked, another process
        // sharing the store has just rotated it, or the server's clock runs ahead. Only the refresh token can
        // tell a dead session from a dead access token, so spend it (single flight, adopting a token another
        // process stored meanwhile) and ask once more; a refused refresh expires the session as usual.
        log.info("profile \(name): the server refused the access token (\(error.detail)); refreshing")
        guard record.refreshToken != nil else { try await expire(name, generation: record.generation) }
        do {
          record = try await refreshed(name, profile, force: true, refused: record)
          record = try await fetchAndCacheUser(name, record, profile)
        } catch let error as ProviderError where error.isTransient {
          log.warning("profile \(name): retry after the refused token failed (\(error.code)); answering stale")
          stale = true
        } catch let error as ProviderError where error.code == .sessionRejected {
          try await expire(name, generation: record.generation)
        }
      }
    }
    return (SessionSnapshot(record), stale)
  }

  /// Fetches the user from the server and caches it; only a changed user costs a (synced) write, since most
  /// fetches confirm what is cached.
  private func fetchAndCacheUser(_ name: String, _ record: SessionRecord, _ profile: Profile) async throws
    -> SessionRecord
  {
    let user = try await profile.provider.fetchUser(record)
    let json = JSONWriter.encode(.object(user.json))
    guard json != record.userJSON else { return record }
    let (generation, now) = (record.generation, clock.now())
    _ = try await Blocking.run { [stores] in
      try stores.get().write { try $0.updateCachedUser(profile: name, generation: generation, userJSON: json, at: now) }
    }
    var updated = record
    updated.userJSON = json
    return updated
  }

  /// Refreshes when inside the margin, or always with `force`.
  package func refreshToken(profile name: String, force: Bool) async throws -> SessionSnapshot {
    let profile = try profile(name)
    let record = try await currentSession(name, profile)
    guard force || needsRefresh(record, profile) else { return SessionSnapshot(record) }
    return SessionSnapshot(try await refreshed(name, profile, force: force))
  }

  private func needsRefresh(_ record: SessionRecord, _ profile: Profile) -> Bool {
    record.expiresAt - clock.now() <= Int64(profile.config.refreshMarginSeconds)
  }

  /// Joins the refresh in flight for this profile, or starts one.
  /// - Parameter refused: the session whose access token the server just refused; when the store already
  ///   holds another token for it, that one is adopted instead of refreshing again.
  private func refreshed(_ name: String, _ profile: Profile, force: Bool, refused: SessionRecord? = nil) async throws
    -> SessionRecord
  {
    let (task, started) = refreshes.withLock { tasks in
      if let running = tasks[name] { return (running, false) }
      let task = Task { try await self.refreshHoldingLock(name, profile, force: force, seen: refused) }
      tasks[name] = task
      return (task, true)
    }
    let result = await task.result
    if started { refreshes.withLock { $0[name] = nil } }
    return try result.get()
  }

  private func refreshHoldingLock(_ name: String, _ profile: Profile, force: Bool, seen known: SessionRecord?)
    async throws -> SessionRecord
  {
    let seen: SessionRecord
    if let known { seen = known } else { seen = try await currentSession(name, profile) }
    return try await stores.get().withProfileLock(name) {
      let current = try await currentSession(name, profile)
      // Someone got here first — a refresh in another process, or a new login: use its result
      // rather than spending a refresh token that may already be rotated.
      if current.generation != seen.generation || !current.accessToken.constantTimeEquals(seen.accessToken) {
        return current
      }
      if !force, !needsRefresh(current, profile) { return current }
      let generation = current.generation
      let now = clock.now()
      do {
        let issued = try await profile.provider.refresh(current, profile: name) { tx, issued in
          try tx.replaceSession(SessionRecord(issued, profile: name, generation: generation, now: now))
        }
        guard let issued else {
          log.info("profile \(name): refresh discarded; the session changed meanwhile")
          return try await currentSession(name, profile)
        }
        log.info("profile \(name): refreshed")
        notify(name, .refreshed)
        return SessionRecord(issued, profile: name, generation: generation, now: now)
      } catch let error as ProviderError where error.code == .sessionRejected {
        log.info("profile \(name): refresh rejected (\(error.detail))")
        try await expire(name, generation: generation)
      }
    }
  }

  /// The provider refused the session: clear it (unless it already changed) and report it.
  private func expire(_ name: String, generation: Int64) async throws -> Never {
    let cleared = try await Blocking.run { [stores] in
      try stores.get().write { tx in
        guard try tx.sessionGeneration(profile: name) == generation else { return false }
        return try tx.clearSession(profile: name)
      }
    }
    if cleared { notify(name, .expired) }
    throw SessionError(.sessionExpired)
  }

  private func currentSession(_ name: String, _ profile: Profile) async throws -> SessionRecord {
    let remember = Int64(profile.config.rememberAccountDays) * 86_400
    let now = clock.now()
    let (record, last) = try await Blocking.run { [stores] in
      try stores.get().read { tx in
        let record = try tx.session(profile: name)
        return (record, record == nil && remember > 0 ? try tx.lastAccount(profile: name) : nil)
      }
    }
    guard let record else {
      let remembered = last.flatMap { now - $0.loggedInAt <= remember ? $0.account : nil }
      throw SessionError(.notLoggedIn(lastAccount: remembered))
    }
    return record
  }

  // MARK: - Logout

  /// Clears locally, then revokes at the provider within `revokeTimeout` (best effort) with the tokens
  /// taken out of the store in the same transaction.
  ///
  /// Local first (security.md T7): a process killed between the two steps leaves the profile logged out.
  /// Revoking first would leave, after such a kill, a stored session whose refresh token is already
  /// revoked — reported as logged in until its next refresh fails with `session_expired`.
  /// - Returns: whether the provider confirmed the revocation.
  package func logout(profile name: String) async throws -> Bool {
    let profile = try profile(name)
    let record = try await Blocking.run { [stores] in
      try stores.get().write { tx -> SessionRecord? in
        let record = try tx.session(profile: name)
        return try tx.clearSession(profile: name) ? record : nil
      }
    }
    guard let record else { return false }
    log.info("profile \(name): logged out")
    notify(name, .loggedOut)
    let revoked = await withinTimeout(revokeTimeout) { try await profile.provider.revoke(record) }
    if !revoked { log.warning("profile \(name): revocation at the provider did not complete") }
    return revoked
  }

  /// Runs `work` with a deadline; true only if it finished without error in time.
  private func withinTimeout(_ limit: Duration, _ work: @escaping @Sendable () async throws -> Void) async -> Bool {
    await withTaskGroup(of: Bool.self) { group in
      group.addTask { (try? await work()) != nil }
      group.addTask {
        try? await Task.sleep(for: limit)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
  }

  // MARK: - Status

  package struct ProfileStatus: Sendable {
    package let name: String
    package let provider: ProviderKind
    /// See `ProviderConfig.loginFlows`.
    package let loginFlows: [LoginFlow]
    package let loggedIn: Bool
    package let expiresAt: Int64?
    package let username: String?
  }

  package func status() async throws -> [ProfileStatus] {
    let names = profileNames
    let sessions = try await Blocking.run { [stores] in
      try stores.get().read { tx in try names.map { try tx.session(profile: $0) } }
    }
    return zip(names, sessions).map { name, record in
      let user = record.flatMap { (try? JSONParser.parse($0.userJSON))?.objectValue }
      return ProfileStatus(
        name: name, provider: profiles[name]!.provider.kind, loginFlows: profiles[name]!.config.provider.loginFlows,
        loggedIn: record != nil, expiresAt: record?.expiresAt,
        username: user?["username"]?.stringValue)
    }
  }
}
