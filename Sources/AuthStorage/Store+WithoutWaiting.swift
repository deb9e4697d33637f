/// A read for a caller whose thread must not block on a lock (a task on the cooperative pool): it runs at once on
/// the calling thread, or does nothing and answers nil, and the caller then runs it where waiting is fine (`read`).
extension Store {
  /// `read`, or nil without running `body` when it would wait: another thread is inside a transaction of this
  /// store, the connection has to be reopened first, or another connection holds a lock (a WAL being recovered or
  /// restarted).
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func readWithoutWaiting<T>(_ body: (ReadTransaction) throws -> T) throws -> T? {
    try transaction("BEGIN DEFERRED", ReadTransaction.init, scrub: .afterReturning, waits: false, body)
  }
}
