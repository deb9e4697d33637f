import AuthProviders
import AuthStorage

/// Reading a session: `getUser`, `refreshToken`, and the single-flight refresh under the profile's lock.
extension SessionService {
  /// A session and whether it comes from the store because the provider could not be reached.
  private typealias Answer = (stored: StoredSession, stale: Bool)

  /// The stored session, refreshed first when it is inside the refresh margin; with `fetchFromServer`, with
  /// the user as the provider knows it now. A transient network failure keeps the stored session and marks the
  /// answer `stale`.
  package func getUser(profile name: String, fetchFromServer: Bool) async throws -> (SessionSnapshot, stale: Bool) {
    let profile = try profile(name)
    let ahead = fetchFromServer ? await fetchAhead(name, profile) : nil
    defer { ahead?.discard() }
    var answer = try await refreshedIfDue(try await currentSession(name, profile), name, profile)
    // A login stopped between storing its tokens and its user: the user is fetched before anyone sees it.
    if fetchFromServer || answer.stored.userIsPending {
      let fetched = try await withFetchedUser(answer.stored, name, profile, ahead: ahead)
      answer = (fetched.stored, answer.stale || fetched.stale)
    }
    return (SessionSnapshot(answer.stored.session), answer.stale)
  }

  /// Refreshes when inside the margin, or always with `force`.
  package func refreshToken(profile name: String, force: Bool) async throws -> SessionSnapshot {
    let profile = try profile(name)
    let stored = try await currentSession(name, profile)
    guard force || needsRefresh(stored, profile) else { return SessionSnapshot(stored.session) }
    return SessionSnapshot(try await refreshed(stored, name, profile, force: force).session)
  }

  // MARK: - getUser's steps

  /// `stored`, or its refresh when it is inside the refresh margin (the stored one, stale, if the provider
  /// cannot be reached).
  private func refreshedIfDue(_ stored: StoredSession, _ name: String, _ profile: Profile) async throws -> Answer {
    guard needsRefresh(stored, profile) else { return (stored, false) }
    do {
      return (try await refreshed(stored, name, profile, force: false), false)
    } catch let error as ProviderError where error.isTransient {
      log.warning("profile \(name): refresh failed (\(error.code)); answering from the cache")
      return (stored, true)
    }
  }

  /// `stored` with the user fetched from the provider (the stored one, stale, if the provider cannot be
  /// reached).
  /// - Parameter ahead: a fetch already sent (`fetchAhead`), whose outcome stands for `stored` if it was sent with it.
  private func withFetchedUser(
    _ stored: StoredSession, _ name: String, _ profile: Profile, ahead: UserFetchAhead? = nil
  ) async throws -> Answer {
    do {
      return (try await fetchUser(stored, profile, ahead: ahead), false)
    } catch let error as ProviderError where error.isTransient && !stored.userIsPending {
      log.warning("profile \(name): user fetch failed (\(error.code)); answering from the cache")
      return (stored, true)
    } catch let error as ProviderError where error.code == .sessionRejected {
      log.info("profile \(name): the server refused the access token (\(error.detail)); refreshing")
      return try await withFetchedUserAfterRefusal(stored, name, profile)
    }
  }

  /// The server refused an access token our clock still calls valid: it was revoked, another process sharing
  /// the store has just rotated it, or the server's clock runs ahead. Only the refresh token can tell a dead
  /// session from a dead access token, so spend it (single flight, adopting a token another process stored
  /// meanwhile) and ask once more; a refused refresh, or a second refusal, ends the session.
  private func withFetchedUserAfterRefusal(_ refused: StoredSession, _ name: String, _ profile: Profile) async throws
    -> Answer
  {
    guard profile.provider.canRefresh(refused.session) else {
      throw try await endSession(name, generation: refused.generation)
    }
    var latest = refused
    do {
      latest = try await refreshed(refused, name, profile, force: true)
      return (try await fetchUser(latest, profile), false)
    } catch let error as ProviderError where error.isTransient && !latest.userIsPending {
      log.warning("profile \(name): retry after the refused token failed (\(error.code)); answering stale")
      return (latest, true)
    } catch let error as ProviderError where error.code == .sessionRejected {
      throw try await endSession(name, generation: latest.generation)
    }
  }

  /// `stored` with the user as the provider knows it now; what changed is kept in the store.
  private func fetchUser(_ stored: StoredSession, _ profile: Profile, ahead: UserFetchAhead? = nil) async throws
    -> StoredSession
  {
    let fetched: FetchedUser
    if let outcome = try await ahead?.outcome(for: stored) {
      fetched = outcome
    } else {
      fetched = try await profile.provider.fetchUser(stored.session)
    }
    try await keepFetched(fetched, of: stored)
    var updated = stored
    updated.session.user = fetched.user
    if let state = fetched.providerState { updated.session.providerState = state }
    noteSeen(updated)
    return updated
  }

  // MARK: - Single-flight refresh

  func needsRefresh(_ stored: StoredSession, _ profile: Profile) -> Bool {
    stored.session.expiresAt - clock.now() <= Int64(profile.config.refreshMarginSeconds)
  }

  /// Joins the refresh in flight for this profile, or starts one for `expected`, the session the caller read.
  private func refreshed(_ expected: StoredSession, _ name: String, _ profile: Profile, force: Bool) async throws
    -> StoredSession
  {
    let (task, started) = refreshes.withLock { tasks in
      if let running = tasks[name] { return (running, false) }
      let task = Task { try await self.refreshHoldingLock(expected, name, profile, force: force) }
      tasks[name] = task
      return (task, true)
    }
    let result = await task.result
    if started { refreshes.withLock { $0[name] = nil } }
    return try result.get()
  }

  /// Refreshes `expected` holding the profile's cross-process lock, unless the store holds another session by
  /// the time the lock is ours.
  private func refreshHoldingLock(_ expected: StoredSession, _ name: String, _ profile: Profile, force: Bool)
    async throws -> StoredSession
  {
    try await stores.get().withProfileLock(name) {
      let current = try await currentSession(name, profile)
      // Someone got here first — a refresh in another process, or a new login: use its result rather than
      // spending a refresh token that may already be rotated.
      guard current.isUnchanged(since: expected) else { return current }
      guard force || needsRefresh(current, profile) else { return current }
      return try await refresh(current, name, profile)
    }
  }

  /// Spends `current`'s refresh token and stores the result (rotated tokens are durable before anyone is told);
  /// a refused refresh token ends the session, unless a new session replaced it meanwhile.
  private func refresh(_ current: StoredSession, _ name: String, _ profile: Profile) async throws -> StoredSession {
    do {
      let refreshed = try await profile.provider.refresh(current.session, profile: name)
      guard let stored = try await storeRefreshed(refreshed, replacing: current) else {
        log.info("profile \(name): refresh discarded; the session changed meanwhile")
        return try await currentSession(name, profile)
      }
      log.info("profile \(name): refreshed")
      announce(name, .refreshed)
      return stored
    } catch let error as ProviderError where error.code == .sessionRejected {
      log.info("profile \(name): refresh rejected (\(error.detail))")
      let expired = try await endSession(name, generation: current.generation)
      // A login while this refresh was out replaces the session without the profile's lock, and revokes the one it
      // replaced: that revocation can reach the server first. The refused token then belonged to a session that
      // is already gone, and the caller gets the new one, as when only the store refuses the refresh (above).
      if let replacement = try? await currentSession(name, profile), replacement.generation != current.generation {
        log.info("profile \(name): the refused session was replaced meanwhile; answering with the new one")
        return replacement
      }
      throw expired
    }
  }
}
