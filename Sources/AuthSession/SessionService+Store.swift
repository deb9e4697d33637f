import AuthProviders
import AuthStorage
import AuthSupport

/// Every read and write of a stored session: one transaction each, on the `Blocking` pool where SQLite may wait for
/// another process's lock (the reads, a login's and a refresh's writes: only when they would, or when another task
/// is committing on the cooperative pool, `LazyStore+Access`).
/// Writes about an existing session name its generation and change nothing once a logout or a new login has moved
/// it on.
extension SessionService {
  /// The profile's session. An unusable one (its user unreadable, see `StoredSession`) is ended here.
  /// - Throws: `SessionError.notLoggedIn` (with the remembered account, within `rememberAccountDays`), or
  ///   `SessionError.sessionExpired` for an unusable session.
  func currentSession(_ name: String, _ profile: Profile) async throws -> StoredSession {
    await settleUserWrites([name])
    let remember = Int64(profile.config.rememberAccountDays) * 86_400
    let now = clock.now()
    let (record, last) = try await stores.read { tx in
      let record = try tx.session(profile: name)
      return (record, record == nil && remember > 0 ? try tx.lastAccount(profile: name) : nil)
    }
    guard let record else {
      let remembered = last.flatMap { now - $0.loggedInAt <= remember ? $0.account : nil }
      throw SessionError(.notLoggedIn(lastAccount: remembered))
    }
    guard let stored = StoredSession(record) else {
      log.warning("profile \(name): the stored user is unreadable; ending the session")
      throw try await endSession(name, generation: record.generation)
    }
    noteSeen(stored)
    return stored
  }

  /// Waits for the user writes that logins of these profiles still make after their answers (see `complete`), so
  /// that this process never reads a session of its own whose user it already answered with as pending.
  func settleUserWrites(_ names: [String]) async {
    let pending = userWrites.withLock { writes in names.compactMap { writes[$0] } }
    for write in pending { await write.wait(interruptible: false) }
  }

  /// The sessions of `names`, in order, as stored (nil: logged out).
  func storedRecords(_ names: [String]) async throws -> [SessionRecord?] {
    await settleUserWrites(names)
    return try await stores.read { tx in try names.map { try tx.session(profile: $0) } }
  }

  /// Stores a new login's session, replacing any previous one: a new generation. The replaced session is ended as
  /// a logout ends it (see `retire`), its local part in this same transaction.
  /// - Returns: the stored session; the replaced one when its provider still has to revoke it at the server; and
  ///   the replaced record as it was stored when nothing ended it in this transaction (it could be put back).
  /// - Parameters:
  ///   - scrubbing: false leaves the scrub to the caller (`LazyStore.scrubAndSyncInBackground`), which still has a
  ///     write to make before it answers.
  ///   - sync: `deferred` leaves the commit's sync to the caller (`LazyStore.syncCommits`), which must wait for it
  ///     before it tells anyone of the session.
  func storeNewSession(
    _ issued: IssuedSession, profile name: String, lastAccount: String, scrubbing: Bool = true,
    sync: Store.CommitSync = .beforeReturning
  ) async throws -> (stored: StoredSession, revokeAtServer: IssuedSession?, restorable: SessionRecord?) {
    let (now, provider) = (clock.now(), try profile(name).provider)
    // The replaced tokens leave the WAL while the answer goes out, not before it. Nothing is lost by the wait: at
    // that moment they still work at their server anyway (an access token until it expires, a replaced session
    // until its revocation, which also follows the answer). A logout keeps scrubbing before it answers.
    let stored = try await stores.writeLeavingScrub(sync: sync) {
      tx -> (stored: StoredSession, revokeAtServer: IssuedSession?, restorable: SessionRecord?) in
      // A replaced session that no longer decrypts is simply overwritten, as before: it cannot be revoked. One whose
      // provider ends sessions in the store alone is overwritten unread: ending it needs nothing from it.
      let replaced = provider.endsSessionsBeyondTheStore ? ((try? tx.session(profile: name)) ?? nil) : nil
      let ended = try Self.retire(replaced, by: provider, in: tx)
      let record = StoredSession(issued, profile: name, generation: 0).record(updatedAt: now)
      let generation = try tx.beginSession(record, lastAccount: lastAccount)
      let stored = StoredSession(issued, profile: name, generation: generation)
      switch ended {
      case .revokeAtServer(let session): return (stored, session, replaced)
      case .nothingToRevoke: return (stored, nil, replaced)
      case .ended, .unusable, nil: return (stored, nil, nil)
      }
    }
    if scrubbing { stores.scrubAndSyncInBackground() }
    return stored
  }

  /// Stores a refresh's session in place of `current`, in one transaction. The local provider's rotation runs
  /// inside it (see `LocalRotation`): discarding the session rolls the rotation back with it.
  /// - Returns: the stored session; nil, storing nothing, when a logout or a new login changed the session
  ///   since `current` was read.
  /// - Throws: `ProviderError.sessionRejected` when the local provider refused the refresh token; what that
  ///   refusal wrote (a reused token revokes its family) is committed.
  func storeRefreshed(_ refreshed: Refreshed, replacing current: StoredSession) async throws -> StoredSession? {
    let now = clock.now()
    do {
      // Like a login's, the replaced tokens leave the WAL after the answer.
      let outcome = try await stores.writeScrubbingAfter { tx -> Result<StoredSession, ProviderError> in
        let issued: IssuedSession
        switch refreshed {
        case .issued(let session): issued = session
        case .rotation(let rotation):
          switch try rotation.run(in: tx) {
          case .success(let session): issued = session
          case .failure(let refusal): return .failure(refusal)
          }
        }
        let stored = current.replaced(by: issued)
        guard try tx.replaceSession(stored.record(updatedAt: now)) else { throw Discarded() }
        return .success(stored)
      }
      let stored = try outcome.get()
      noteSeen(stored)
      return stored
    } catch is Discarded {
      return nil
    }
  }

  /// Keeps what a user fetch changed — the user, the provider's state (cookies the site rotated) — in one
  /// transaction; most fetches confirm what is stored and cost no write. The tokens are left alone: a refresh in
  /// another process may have rotated them since `stored` was read.
  func keepFetched(_ fetched: FetchedUser, of stored: StoredSession) async throws {
    let userJSON = fetched.user != stored.session.user ? fetched.user.storedJSON : nil
    let state = fetched.providerState != stored.session.providerState ? fetched.providerState : nil
    guard userJSON != nil || state != nil else { return }
    let (name, generation, now) = (stored.profile, stored.generation, clock.now())
    try await Blocking.run { [stores] in
      try stores.get().write { tx in
        if let state { _ = try tx.updateProviderState(profile: name, generation: generation, state: state, at: now) }
        if let userJSON {
          _ = try tx.updateCachedUser(profile: name, generation: generation, userJSON: userJSON, at: now)
        }
      }
    }
  }

  /// Clears the profile's session (a logout), ending it like `storeNewSession` ends a replaced one.
  /// - Returns: what is left to do; nil when there was no session.
  func takeSession(_ name: String, provider: any IdentityProvider) async throws -> Retired? {
    try await Blocking.run { [stores] in
      try stores.get().write { tx -> Retired? in
        let record = try tx.session(profile: name)
        guard try tx.clearSession(profile: name) else { return nil }
        return try Self.retire(record, by: provider, in: tx)
      }
    }
  }

  /// What ending a session left undone.
  enum Retired {
    /// Nothing: the provider ended it in the store transaction.
    case ended
    /// The stored user was unreadable, so neither the provider nor anybody can be told about it.
    case unusable
    /// The provider must revoke it at its server.
    case revokeAtServer(IssuedSession)
    /// Nothing: the provider cannot end sessions at its server.
    case nothingToRevoke
  }

  /// Ends `record`'s session at its provider as far as `tx` can: the local provider's tokens right here.
  static func retire(_ record: SessionRecord?, by provider: any IdentityProvider, in tx: WriteTransaction) throws
    -> Retired?
  {
    guard let record else { return nil }
    guard let stored = StoredSession(record) else { return .unusable }
    switch provider.retirement(of: stored.session) {
    case .inStore(let end):
      try end(tx)
      return .ended
    case .atServer: return .revokeAtServer(stored.session)
    case .storeOnly: return .nothingToRevoke
    }
  }

  /// The session is over (the provider refused it, or it is unusable): clears it unless it changed meanwhile,
  /// and announces it.
  /// - Returns: the error to answer with, `sessionExpired`.
  func endSession(_ name: String, generation: Int64) async throws -> SessionError {
    forgetSeen(name, generation: generation)
    let cleared = try await Blocking.run { [stores] in
      try stores.get().write { tx in
        guard try tx.sessionGeneration(profile: name) == generation else { return false }
        return try tx.clearSession(profile: name)
      }
    }
    if cleared { announce(name, .expired) }
    return SessionError(.sessionExpired)
  }
}

/// Thrown inside a write transaction to roll it back: the session changed meanwhile.
private struct Discarded: Error {}
