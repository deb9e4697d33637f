import AuthStorage
import AuthSupport
import Synchronization

/// The session service's way into the store.
///
/// A read runs on the calling task's thread when no lock stands in the way, else on the `Blocking` pool, where
/// waiting up to SQLite's busy timeout for another process stalls no other request. That saves a `getUser` two thread
/// hops, each a wake-up that on a loaded machine queues behind other processes. A login's or a refresh's write does
/// the same, with one more condition: its commit's sync holds the thread for as long as the disk takes, so only one
/// task of the process at a time commits on the cooperative pool (see `writeScrubbingAfter`).
extension LazyStore {
  /// `Store.read`, on this thread unless it would wait for a lock.
  func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
    if let store = openedIfFree, let value = try store.readWithoutWaiting(body) { return value }
    return try await Blocking.run { [self] in try get().read(body) }
  }

  /// `Store.write(scrub: .afterReturning)`, then the scrub of the secrets it removed on a thread of its own
  /// (`Blocking.submit`), which the caller does not wait for: the one durable commit is all an answer waits for (see
  /// `Store.ScrubTiming`). A first login replaced nothing and wakes no scrub.
  ///
  /// The commit runs on this thread when no lock is in the way and no other task of the process is committing on the
  /// cooperative pool, else on the `Blocking` pool. Its hop there and back were two wake-ups on a login's path; the
  /// sync it then waits for here is one disk flush (0.1–4 ms on the machines measured), and with at most one such
  /// wait at a time the pool's other threads keep running every other task. (With no such bound, every task of a
  /// busy test process committing at once held both threads of a two-core pool through their syncs, long enough
  /// under load to trip 20 s hang guards.)
  func writeScrubbingAfter<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws
    -> T
  {
    let value = try await writeLeavingScrub(body)
    scrubAndSyncInBackground()
    return value
  }

  /// `writeScrubbingAfter` without the scrub: the caller starts it (`scrubAndSyncInBackground`) once its answer is
  /// out, so that no checkpoint runs while it still has a write to make. With `sync: .deferred` the commit does not
  /// wait for the disk (`Store.CommitSync`).
  func writeLeavingScrub<T: Sendable>(
    sync: Store.CommitSync = .beforeReturning, _ body: @escaping @Sendable (WriteTransaction) throws -> T
  ) async throws -> T {
    if let committed = try writeOnThisThreadIfFree(sync: sync, body) { return committed }
    return try await Blocking.run { [self] in try get().write(scrub: .afterReturning, sync: sync, body) }
  }

  /// `Store.syncCommits`, on the `Blocking` pool: the calling thread (the HTTP thread, for a login's early write)
  /// stays free for the network while the disk works.
  /// - Returns: false when the store could not be opened or the sync failed.
  func syncCommits() async -> Bool {
    (try? await Blocking.run { [self] in try get().syncCommits() }) ?? false
  }

  /// Scrubs what the writes so far left in the WAL and syncs their deferred commits, on a thread of its own
  /// (`Blocking.submit`) that nobody waits for; wakes nothing when neither is pending.
  func scrubAndSyncInBackground() {
    guard let store = try? get(), store.scrubIsPending || store.syncIsPending else { return }
    Blocking.submit {
      store.scrubPendingSecrets()
      store.syncDeferredCommits()
    }
  }

  /// Whether a task is committing on the cooperative pool (`writeOnThisThreadIfFree`): one at a time, process-wide.
  private static let committingOnPool = Atomic<Bool>(false)

  /// The write on the calling thread; nil when it would wait for a lock or another task is committing on the pool.
  private func writeOnThisThreadIfFree<T>(sync: Store.CommitSync = .beforeReturning, _ body: (WriteTransaction) throws -> T)
    throws -> T?
  {
    guard let store = openedIfFree else { return nil }
    guard !Self.committingOnPool.exchange(true, ordering: .acquiring) else { return nil }
    defer { Self.committingOnPool.store(false, ordering: .releasing) }
    return try store.writeWithoutWaiting(scrub: .afterReturning, sync: sync, body)
  }
}
