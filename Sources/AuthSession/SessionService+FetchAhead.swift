import AuthProviders
import Synchronization

/// A `getUser {refresh: true}` sends its user request before it reads the store, with the session this process last
/// saw for the profile, and reads the store while the request is out.
///
/// Reading the stored session (the file check, the read transaction, decrypting the tokens, decoding the user) came
/// before the request and added its whole time to the answer, though it is a fraction of the server's. The request
/// only needs the session's tokens, which this process nearly always already knows: it stored them (a login, a
/// refresh) or read them last time. The stored session still decides everything: the early request's outcome is
/// used only when the session read afterwards is the very one it was sent with (field for field), so the answer is
/// the one the request would have given after the read. Otherwise (another process logged in or refreshed meanwhile,
/// or the session is due for a refresh) it is cancelled and its outcome ignored, and the user is fetched as before,
/// with the stored session. Only a provider whose user fetch just reads takes part (`fetchesUserAhead`): ignoring
/// an outcome must lose nothing, such as a cookie the server rotated.
///
/// The cost of a wrong guess is one ignored request to the provider's server with an access token this process
/// held: never after this process ended the session itself (a logout, a refused session forget it), and never a
/// refresh token.
extension SessionService {
  /// What this process last knew of a profile's session: the session, or nil once it ended it (until a newer
  /// generation is seen).
  struct SeenSession: Sendable {
    var session: StoredSession?
    var generation: Int64
  }

  /// Notes `stored` as the profile's session, unless this process already knows a newer one or ended this one.
  func noteSeen(_ stored: StoredSession) {
    sessionsSeen.withLock { seen in
      if let known = seen[stored.profile] {
        if known.generation > stored.generation || (known.session == nil && known.generation == stored.generation) {
          return
        }
      }
      seen[stored.profile] = SeenSession(session: stored, generation: stored.generation)
    }
  }

  /// This process ended the profile's session (`generation`, or whichever it knew): nothing is sent with it again.
  func forgetSeen(_ name: String, generation: Int64? = nil) {
    sessionsSeen.withLock { seen in
      let known = seen[name]?.generation ?? .min
      seen[name] = SeenSession(session: nil, generation: max(known, generation ?? known))
    }
  }

  /// A user fetch sent before the store was read.
  struct UserFetchAhead: Sendable {
    let sentWith: StoredSession
    let fetch: Task<FetchedUser, any Error>

    /// The fetch's outcome when `stored` is the session it was sent with; nil, the fetch cancelled, otherwise.
    func outcome(for stored: StoredSession) async throws -> FetchedUser? {
      guard stored.isIdentical(to: sentWith) else {
        fetch.cancel()
        return nil
      }
      return try await withTaskCancellationHandler { try await fetch.value } onCancel: { fetch.cancel() }
    }

    /// Stops the fetch if its outcome was not asked for (an error before the user was needed).
    func discard() { fetch.cancel() }
  }

  /// Sends the profile's user request with the session last seen, when the provider's fetch just reads and that
  /// session is not due for a refresh (the refresh would come first, and the request then carry another token).
  func fetchAhead(_ name: String, _ profile: Profile) async -> UserFetchAhead? {
    let provider = profile.provider
    guard provider.fetchesUserAhead, let seen = sessionsSeen.withLock({ $0[name]?.session }),
      !seen.userIsPending, !needsRefresh(seen, profile)
    else { return nil }
    // On the HTTP thread's executor where it runs: the answer resumes the fetch where it arrives.
    let fetch = Task(executorPreference: networkThreadExecutor() ?? globalConcurrentExecutor) {
      try await provider.fetchUser(seen.session)
    }
    // Where this task runs on that executor too (started by the thread that read the request), the executor runs
    // its jobs in order: yielding lets the fetch send its request before this task reads the store.
    await Task.yield()
    return UserFetchAhead(sentWith: seen, fetch: fetch)
  }
}

extension StoredSession {
  /// Whether `other` holds exactly this session: the same login, and the same tokens, expiry, user and provider
  /// state (`IssuedSession.isIdentical`).
  func isIdentical(to other: StoredSession) -> Bool {
    profile == other.profile && generation == other.generation && session.isIdentical(to: other.session)
  }
}
