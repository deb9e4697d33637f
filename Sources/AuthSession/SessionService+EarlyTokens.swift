import AuthProviders
import AuthStorage
import AuthSupport
import Synchronization

/// A password login whose provider reports its tokens before its last request, which only fetches the user
/// (`LoginProgress`): the durable write of the new session runs while that request is out, instead of after it.
///
/// 1. Once the user request is out, the tokens are stored, replacing the previous session (the user kept as pending),
///    on the cooperative pool, in a write whose commit does not wait for the disk (`Store.CommitSync.deferred`), then
///    synced on the `Blocking` pool. The answer waits for that sync, the HTTP thread does not: the user's response,
///    arriving while the disk still works, is read and made ready meanwhile, and no other transfer waits behind the
///    write or its flush (0.5–3 ms on the machines measured). Readers may see the session before it is on disk, safe
///    from this process being killed; the host hears of it only once it is. A sync that fails fails the login, as in
///    step 3.
/// 2. When the user arrives, the answer goes out, and then the user is added in a write that does not wait for the
///    disk (`Store.CommitSync.deferred`): safe from this process being killed once committed, and synced right after.
///    A crash or power cut before that can only lose the user, which a session whose user is pending fetches again
///    before it answers with one; this process's own readers wait for the write.
/// 3. A login that fails after step 1 puts back the session it replaced (or, with none, ends the one it stored), so
///    a failed login leaves the profile as it found it; the tokens it got are revoked at the server.
extension SessionService {
  /// What step 1 stored; the session it replaced when that one is still to be revoked at its server; the replaced
  /// record, for step 3 to put back; and whether the write reached the disk (false: step 3 undoes it).
  struct StoredTokens: Sendable {
    let stored: StoredSession
    let replaced: IssuedSession?
    let restorable: SessionRecord?
    let durable: Bool
  }

  /// The step-1 write of one login, started at most once, from the provider's task.
  final class EarlyTokens: Sendable {
    private let write = Mutex<Task<StoredTokens, any Error>?>(nil)

    /// Starts `body` on the global pool unless a write was started already.
    ///
    /// The task is queued on `starter` (the HTTP thread's executor, where the provider reports) and moves to the pool
    /// from there: queued on the thread that runs the provider's task, it starts only once that task waits, that is
    /// once the user request is sent, and the pool thread's wake-up comes after that request rather than before it
    /// (queued on the pool directly, it delayed the request by that wake-up). On the pool, the write's work stays off
    /// the thread that reads the user's response: done there, the answer left 50–90 µs later after that response
    /// (`bench/stage_times.py`), on a machine whose other core the server was using.
    func store(startingOn starter: (any TaskExecutor)?, _ body: @escaping @Sendable () async throws -> StoredTokens) {
      write.withLock { write in
        guard write == nil else { return }
        write = Task(executorPreference: starter ?? globalConcurrentExecutor) {
          try await withTaskExecutorPreference(globalConcurrentExecutor) { try await body() }
        }
      }
    }

    /// The write, if the provider reported tokens.
    var stored: Task<StoredTokens, any Error>? { write.withLock { $0 } }
  }

  /// Runs the provider's password login, starting step 1 in `early` when it reports its tokens.
  func providerLogin(
    _ provider: any IdentityProvider, _ account: LoginAccount, password: String, profile name: String,
    early: EarlyTokens
  ) async throws -> IssuedSession {
    let listener = LoginProgress.Listener { [self] tokens in
      early.store(startingOn: networkThreadExecutor()) {
        let (stored, replaced, restorable) = try await self.storeNewSession(
          tokens.session, profile: name, lastAccount: account.text, scrubbing: false, sync: .deferred)
        let durable = await self.stores.syncCommits()
        return StoredTokens(stored: stored, replaced: replaced, restorable: restorable, durable: durable)
      }
    }
    return try await LoginProgress.$listener.withValue(listener) {
      try await provider.login(account, password: password, profile: name)
    }
  }

  /// Step 2: the provider is done; its session differs from the stored one by its user only.
  func complete(
    _ early: Task<StoredTokens, any Error>, with issued: IssuedSession, profile name: String,
    provider: any IdentityProvider
  ) async throws -> SessionSnapshot {
    let tokens = try await early.value
    // Committed, but not known to be on disk: the login fails (the caller undoes the write, `abandon`).
    guard tokens.durable else { throw StorageError(.unavailable, "the new session could not be written to disk") }
    // The user joins the stored tokens after the answer (`AfterAnswer`): nothing in the answer waits for that write,
    // nor for starting it (a task made here, for it, cost the answer its creation). Until it commits, this process's
    // readers of the profile wait for it (`settleUserWrites`: registered before the host can hear of the login), and
    // another process finds the user pending and fetches it, as after a crash right here.
    let written = Completion()
    userWrites.withLock { $0[name] = written }
    // Nothing below can fail: the host hears of the login now. Its notification is a write of its own ahead of the
    // answer, which wakes a host waiting for the answer while the rest of it is worked out (a wake-up on these
    // machines takes longer than what is left), so the earlier, the more of that wake-up is hidden.
    log.info("profile \(name): logged in")
    announce(name, .loggedIn)
    let (stored, replaced) = (tokens.stored, tokens.replaced)
    let (generation, userJSON, now) = (stored.generation, issued.user.storedJSON, clock.now())
    await AfterAnswer.run { [self] in
      do {
        // False when another process replaced or ended the session meanwhile: its write stands, as after `begin`.
        _ = try await stores.writeLeavingScrub(sync: .deferred) { tx in
          try tx.updateCachedUser(profile: name, generation: generation, userJSON: userJSON, at: now)
        }
      } catch {
        log.warning("profile \(name): the new session's user could not be stored; it is fetched again when asked for")
      }
      userWrites.withLock { if $0[name] === written { $0[name] = nil } }
      written.signal()
      stores.scrubAndSyncInBackground()
    }
    let session = StoredSession(issued, profile: name, generation: generation)
    noteSeen(session)
    if let replaced {
      // Not awaited: the replaced session's revocation never delays the new login's answer.
      Task { [self] in _ = await revokeAtServer(replaced, by: provider, profile: name, what: "the replaced session") }
    }
    return SessionSnapshot(session.session)
  }

  /// Step 3: the login failed after its tokens were stored (the user request failed, or the login was cancelled).
  /// Unless another write changed the session meanwhile, the session it replaced is put back (a new generation, so
  /// a refresh of it still in flight is discarded), or the stored one ended when it replaced none; the failed
  /// login's tokens are revoked at the server in the background.
  func abandon(_ early: EarlyTokens, profile name: String, provider: any IdentityProvider) async {
    guard let write = early.stored, let tokens = try? await write.value else { return }
    let (stored, restorable) = (tokens.stored, tokens.restorable)
    let generation = stored.generation
    let undone = try? await Blocking.run { [stores] in
      try stores.get().write { tx in
        guard try tx.sessionGeneration(profile: name) == generation else { return false }
        if let restorable { try tx.beginSession(restorable) } else { try tx.clearSession(profile: name) }
        return true
      }
    }
    stores.scrubAndSyncInBackground()
    guard undone == true else { return }
    // Nothing to announce: the host was never told of this login. (A replaced session that could not be put back was
    // unreadable or already ended in the store: the profile is logged out, as the next read would find anyway.)
    log.info("profile \(name): the login failed after its tokens were stored; its session is undone")
    Task { [self] in
      _ = await revokeAtServer(stored.session, by: provider, profile: name, what: "the failed login's session")
    }
  }
}
