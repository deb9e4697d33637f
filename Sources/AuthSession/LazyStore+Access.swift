import AuthStorage
import AuthSupport

/// The session service's way into the store: on the calling task's thread when no lock stands in the way, else on
/// the `Blocking` pool, where waiting up to SQLite's busy timeout for another process stalls no other request.
///
/// A login's commit or a `getUser`'s read run on the caller's thread almost always: one process, one request on the
/// profile at a time. That saves two thread hops per request, each a wake-up of a thread running at the lowest
/// priority, which on a loaded machine waits behind every other process; the commit's own sync (a fraction of a
/// millisecond) is no longer than a request's other work.
extension LazyStore {
  /// `Store.read`, on this thread unless it would wait for a lock.
  func read<T: Sendable>(_ body: @escaping @Sendable (ReadTransaction) throws -> T) async throws -> T {
    if let store = openedIfFree, let value = try store.readWithoutWaiting(body) { return value }
    return try await Blocking.run { [self] in try get().read(body) }
  }

  /// `Store.write(scrub: .afterReturning)`, on this thread unless it would wait for a lock, then the scrub of the
  /// secrets it removed on the `Blocking` pool, which the caller does not wait for: the one durable commit is all
  /// an answer waits for (see `Store.ScrubTiming`). `body` may run twice (the first time rolled back), so it must
  /// change nothing but the store.
  func writeScrubbingAfter<T: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> T) async throws
    -> T
  {
    if let store = openedIfFree, let value = try store.writeWithoutWaiting(body) {
      if store.mayNeedScrub { Blocking.submit { _ = store.scrubPendingSecrets() } }
      return value
    }
    return try await Blocking.run(
      { [self] in try get().write(scrub: .afterReturning, body) },
      then: { [self] in _ = try? get().scrubPendingSecrets() })
  }
}
