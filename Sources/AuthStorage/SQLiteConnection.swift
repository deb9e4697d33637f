import CSQLite
import Glibc

/// One SQLite connection. Not thread-safe on purpose: `Store` owns it behind its `Mutex`, so it is opened
/// SQLITE_OPEN_NOMUTEX (multi-thread mode) and SQLite's own per-call mutex would only repeat our lock.
///
/// Every failure comes out as a `StorageError`; when SQLite reports CORRUPT or NOTADB the connection also
/// remembers it (`damage`) so `Store` moves the file aside even if the caller swallowed the error.
///
/// `@unchecked Sendable` only so it can live in `Store`'s `Mutex` and be lent to a transaction closure: every use
/// happens while that `Mutex` is held (transactions trap when used after their closure returns).
final class SQLiteConnection: @unchecked Sendable {
  let path: String
  /// The first CORRUPT/NOTADB error seen on this connection.
  private(set) var damage: StorageError?
  /// Set when SQLite answered BUSY: another connection held a lock this one would have had to wait for. Only read
  /// while `waitsForLocks` is off (see `Store.readWithoutWaiting`).
  private(set) var wasRefusedBusy = false
  /// Set by a write that removed secrets; `Store` empties the WAL of them once the transaction commits, at the
  /// time the write asked for (`Store.ScrubTiming`).
  var scrubAfterCommit = false
  private var handle: OpaquePointer?
  /// Prepared once, reused for the life of the connection: the same few statements run on every request.
  private var cache: [String: Statement] = [:]

  /// Opens an existing file (we create it ourselves, with our mode) and refuses to follow a symlink.
  init(path: String) throws {
    self.path = path
    var db: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_PRIVATECACHE
    let rc = sqlite3_open_v2(path, &db, flags, nil)
    handle = db
    guard rc == SQLITE_OK, db != nil else {
      let failure = db.map { fail(rc, sqlite3_errmsg($0)) } ?? fail(rc, nil)
      close(checkpoint: false)
      throw failure
    }
    sqlite3_extended_result_codes(db, 1)
    sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
    auth_sqlite3_db_config_defensive(db, 1)
    // A persistent WAL is never unlinked by close(): unlinking goes by path, and after a quarantine or a user's
    // `rm` that path may already name another live store's WAL.
    var persist: Int32 = 1
    sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
  }

  deinit { close(checkpoint: true) }

  /// Off, a lock held by another connection is answered BUSY at once instead of after up to ten seconds of SQLite's
  /// backoff: a caller on a thread that must not block tries, and on refusal goes where waiting is fine.
  var waitsForLocks = true {
    didSet {
      guard let handle, waitsForLocks != oldValue else { return }
      wasRefusedBusy = false
      sqlite3_busy_timeout(handle, waitsForLocks ? Self.busyTimeoutMilliseconds : 0)
    }
  }

  /// Ten seconds of SQLite's own backoff before a lock turns into SQLITE_BUSY: many sidecars share one store.
  private static let busyTimeoutMilliseconds: Int32 = 10_000

  /// `checkpoint: false` leaves a damaged file exactly as found, for inspection.
  func close(checkpoint: Bool) {
    cache.removeAll()
    guard let db = handle else { return }
    if !checkpoint { auth_sqlite3_db_config_no_checkpoint_on_close(db, 1) }
    sqlite3_close_v2(db)
    handle = nil
  }

  /// Runs one or more statements that take no arguments (pragmas, the schema, BEGIN/COMMIT).
  func execute(_ sql: String) throws {
    let db = try open()
    let rc = sqlite3_exec(db, sql, nil, nil, nil)
    guard rc == SQLITE_OK else { throw fail(rc, sqlite3_errmsg(db)) }
  }

  /// One statement without arguments or rows (BEGIN, COMMIT, a pragma), prepared once per connection: every
  /// transaction runs two or three, and `execute` parsed each again (as much work as the transaction's own query).
  func executePrepared(_ sql: String) throws {
    let prepared = try statement(sql, [])
    defer { prepared.finish() }
    while try prepared.step() {}
  }

  /// A cached prepared statement with `arguments` bound, ready to step.
  func statement(_ sql: String, _ arguments: [SQLValue]) throws -> Statement {
    let statement: Statement
    if let cached = cache[sql] {
      statement = cached
    } else {
      let db = try open()
      var raw: OpaquePointer?
      let rc = sqlite3_prepare_v3(db, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
      guard rc == SQLITE_OK, let raw else { throw fail(rc, sqlite3_errmsg(db)) }
      statement = Statement(raw, connection: self)
      cache[sql] = statement
    }
    try statement.reset(binding: arguments)
    return statement
  }

  /// Copies every WAL frame into the database and truncates the WAL to zero bytes. A deleted row's old page
  /// images stay in WAL frames until then (secure_delete only zeroes the page's newest version), so sealed
  /// tokens of a logged-out session would stay readable in `-wal`. Waits for readers like any lock (busy
  /// timeout); when another process still reads an old snapshot the WAL cannot be emptied, and that is
  /// reported as `false` so the caller can try again later.
  @discardableResult
  func checkpointTruncatingWAL() throws -> Bool {
    let db = try open()
    var logFrames: Int32 = 0
    var checkpointed: Int32 = 0
    let rc = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_TRUNCATE, &logFrames, &checkpointed)
    if rc == SQLITE_BUSY || rc == SQLITE_LOCKED { return false }
    guard rc == SQLITE_OK else { throw fail(rc, sqlite3_errmsg(db)) }
    return true
  }

  /// Starts the WAL that `checkpointTruncatingWAL` emptied: commits page 1 unchanged (the application id, read
  /// and written back inside the write lock). The first commit to an empty WAL syncs its new header before its
  /// frames; made here, off the next answer's path, that sync leaves the next commit with one `fdatasync`.
  /// Inside the write lock the emptied file also gets its room back (`WALPresize`), so the next commits overwrite
  /// allocated bytes instead of growing the file; this commit's syncs make that room durable.
  func startWAL() throws {
    try execute("BEGIN IMMEDIATE")
    WALPresize.extend(path + "-wal")
    do {
      let id = try row("PRAGMA application_id") { $0.integer(0) } ?? 0
      try execute("PRAGMA application_id = \(id)")
      try execute("COMMIT")
    } catch {
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// False once COMMIT or ROLLBACK has ended the transaction (SQLite rolls back by itself on some errors).
  var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

  /// Runs a statement that returns no rows; the number of rows it changed.
  @discardableResult
  func run(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int {
    let statement = try statement(sql, arguments)
    defer { statement.finish() }
    while try statement.step() {}
    return Int(sqlite3_changes(handle))
  }

  /// Every row, mapped.
  func rows<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (Row) throws -> T) throws -> [T] {
    let statement = try statement(sql, arguments)
    defer { statement.finish() }
    var result: [T] = []
    while try statement.step() { result.append(try map(Row(statement: statement))) }
    return result
  }

  /// The first row, mapped, or nil.
  func row<T>(_ sql: String, _ arguments: [SQLValue] = [], _ map: (Row) throws -> T) throws -> T? {
    let statement = try statement(sql, arguments)
    defer { statement.finish() }
    return try statement.step() ? map(Row(statement: statement)) : nil
  }

  /// Turns a result code into a `StorageError`, remembering damage. `detail` is SQLite's message: it names
  /// tables and columns, never bound values.
  func fail(_ rc: Int32, _ detail: UnsafePointer<CChar>?) -> StorageError {
    let failure = SQLiteFailure(code: rc, detail: detail.map { String(cString: $0) } ?? "", path: path)
    let error = failure.storageError
    if failure.isDamage, damage == nil { damage = error }
    if failure.primary == SQLITE_BUSY { wasRefusedBusy = true }
    return error
  }

  private func open() throws -> OpaquePointer {
    guard let handle else { throw StorageError(.internalError, "SQLite connection to \(path) used after close") }
    return handle
  }
}
