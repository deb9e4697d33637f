/// Transactions for a caller whose thread must not block on a lock (a task on the cooperative pool): each runs at
/// once on the calling thread, or does nothing and answers nil, and the caller then runs it where waiting is fine
/// (`read` or `write`). Only a lock makes one refuse; a commit's own sync still happens on the calling thread, as
/// short as any other work of a request.
extension Store {
  /// `read`, or nil without running `body` when it would wait: another thread is inside a transaction of this
  /// store, the connection has to be reopened first, or another connection holds a lock (a WAL being recovered or
  /// restarted).
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func readWithoutWaiting<T>(_ body: (ReadTransaction) throws -> T) throws -> T? {
    try transaction("BEGIN DEFERRED", ReadTransaction.init, scrub: .afterReturning, waits: false, body)
  }

  /// `write(scrub: .afterReturning)`, or nil, rolled back, when it would wait as `readWithoutWaiting` says or
  /// another connection holds the write lock. `body` may run and be rolled back before nil is answered, so it
  /// must change nothing but the store.
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func writeWithoutWaiting<T>(_ body: (WriteTransaction) throws -> T) throws -> T? {
    try transaction("BEGIN IMMEDIATE", WriteTransaction.init, scrub: .afterReturning, waits: false, body)
  }
}
