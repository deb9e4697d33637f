/// Transactions for a caller whose thread must not block on a lock (a task on the cooperative pool): they run at once
/// on the calling thread, or do nothing and answer nil, and the caller then runs them where waiting is fine (`read`,
/// `write`).
extension Store {
  /// `read`, or nil without running `body` when it would wait: another thread is inside a transaction of this
  /// store, the connection has to be reopened first, or another connection holds a lock (a WAL being recovered or
  /// restarted).
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func readWithoutWaiting<T>(_ body: (ReadTransaction) throws -> T) throws -> T? {
    try transaction("BEGIN DEFERRED", ReadTransaction.init, scrub: .afterReturning, waits: false, body)
  }

  /// `write(scrub:_:)`, or nil without running `body` (or with its work rolled back) when it would wait for a lock,
  /// as `readWithoutWaiting`: another connection writing or checkpointing is a refusal, not a wait. The commit's
  /// sync still blocks the calling thread for as long as the disk takes.
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func writeWithoutWaiting<T>(
    scrub: ScrubTiming, sync: CommitSync = .beforeReturning, _ body: (WriteTransaction) throws -> T
  ) throws -> T? {
    try transaction("BEGIN IMMEDIATE", WriteTransaction.init, scrub: scrub, sync: sync, waits: false, body)
  }
}
