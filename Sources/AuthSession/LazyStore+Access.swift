import AuthStorage
import AuthSupport

/// The session service's way into the store.
///
/// A read runs on the calling task's thread when no lock stands in the way, else on the `Blocking` pool, where
/// waiting up to SQLite's busy timeout for another process stalls no other request. That saves a `getUser` two thread
/// hops, each a wake-up that on a loaded machine queues behind other processes. A write keeps its hop: its commit's sync would hold one of the cooperative pool's two threads for as
/// long as the disk takes, which under load is long enough to stall every other task of the process.
extension LazyStore {
  /// `Store.read`, on this thread unless it would wait for a lock.
  func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
    if let store = openedIfFree, let value = try store.readWithoutWaiting(body) { return value }
    return try await Blocking.run { [self] in try get().read(body) }
  }

  /// `Store.write(scrub: .afterReturning)` on the `Blocking` pool, then the scrub of the secrets it removed on a
  /// thread of its own (`Blocking.submit`), which the caller does not wait for: the one durable commit is all an
  /// answer waits for (see `Store.ScrubTiming`).
  func writeScrubbingAfter<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws
    -> T
  {
    let value = try await Blocking.run { [self] in try get().write(scrub: .afterReturning, body) }
    Blocking.submit { [self] in _ = try? get().scrubPendingSecrets() }
    return value
  }
}
