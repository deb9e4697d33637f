import Synchronization

/// The durable, private store: one SQLite database per state directory, secrets sealed with the store key.
///
/// Safe to share between threads and tasks (one connection behind a `Mutex`) and between processes (SQLite WAL
/// locking with a 10 s busy timeout). A damaged database is moved aside and reported as `.corrupt`; the next
/// transaction (or the next `Store`) starts a fresh one.
///
/// - Important: keep transactions short and free of network I/O: a write holds the store's write lock for every
///   process. Never call back into the same `Store` from inside a transaction closure: the lock is not
///   re-entrant and traps. Waiting for the `Mutex` or for another process's write lock (up to the 10 s busy
///   timeout) blocks the calling thread.
package final class Store: Sendable {
  package let directory: StateDirectory
  /// Where its key came from: the protection the `status` method reports.
  package let protectionLevel: KeySource
  /// Things worth a log line from opening (modes tightened, key file created); never secrets.
  package let notes: [String]
  /// The profile locks that live beside this store.
  package let profileLocks: ProfileLock
  package var databasePath: String { directory.file(DatabaseFile.name) }

  private let sealer: Sealer
  private let state: Mutex<OpenDatabase>
  /// Held shared while this store lives, so `store rekey` cannot run under it.
  private let inUse: StoreInUse
  /// One scrub at a time in this process: SQLite refuses a second checkpoint at once (SQLITE_BUSY, without waiting),
  /// and a logout must not answer because a deferred scrub on the other connection was still running. Holds the
  /// deferred scrubs' own connection between them.
  private let scrubbing = Mutex<WALScrub?>(nil)

  /// The connection and the identity of the file it opened, so a quarantine or a replacement by another process
  /// (the path now names another file) is noticed before the next transaction instead of writing to the old one.
  private struct OpenDatabase {
    var connection: SQLiteConnection?
    var identity: FileSystem.Identity?
    /// A committed write removed secrets and the WAL still holds them (see `ScrubTiming.afterReturning`).
    var scrubPending = false
    /// A `CommitSync.deferred` write committed and the WAL has not been synced since.
    var syncPending = false
  }

  /// When a write's commit reaches the disk.
  package enum CommitSync: Sendable {
    /// Before `write` returns (the WAL is synced at the commit): the caller may acknowledge it right away.
    case beforeReturning
    /// Committed for every reader and safe from this process being killed once `write` returns, and on disk once
    /// `syncDeferredCommits()` (or any later synced commit or checkpoint) ran: for a write whose loss to a power
    /// cut would cost nothing the store cannot get back, made while the caller waits.
    case deferred
  }

  /// When a write that removed secrets (a replaced, refreshed or ended session) empties the WAL of them.
  ///
  /// The scrub is a checkpoint that truncates the WAL: it syncs the database file and makes the next commit
  /// sync a fresh WAL header, so it costs more than the commit itself.
  package enum ScrubTiming: Sendable {
    /// Before `write` returns: the caller can then say the secrets are gone (a logout).
    case beforeReturning
    /// Left to `scrubPendingSecrets()`, which the caller runs once its answer is on its way (a login, a refresh).
    /// A process killed before that leaves it to the next secret-removing write, the last close, or the next
    /// open of the store; the values left meanwhile are sealed like every secret in the store.
    case afterReturning
  }

  /// Opens (creating if needed) `<directory>/store.sqlite3` with `key`.
  /// - Throws: `StorageError` `.unavailable`, `.invalidConfiguration` or `.corrupt` for a key other than the one
  ///   the store was created with (see `KeyCheck`), or `.corrupt` after moving a damaged file aside (open again to
  ///   start fresh).
  package convenience init(directory: StateDirectory, key: StoreKey) throws {
    try self.init(directory: directory) { _, _ in key }
  }

  /// Resolves the state directory (`--state-dir` > `AUTH_SIDECAR_STATE_DIR` > XDG), loads the key from where
  /// `selection` says (by default `auto`: `AUTH_SIDECAR_KEY`, else the recorded source, else keyring or
  /// `store.key`) and opens the store.
  /// - Throws: `StorageError` `.invalidConfiguration`, `.unavailable` or `.corrupt`.
  package convenience init(
    explicitStateDirectory: String?, environment: [String: String], selection: KeySelection = KeySelection()
  ) throws {
    let directory = try StateDirectory(explicitPath: explicitStateDirectory, environment: environment)
    // A malformed environment key is refused before the database is even created.
    let environmentKey = try StoreKey(environment: environment)
    try self.init(directory: directory) { recorded, holdsSecrets in
      try StoreKey(
        directory: directory, environmentKey: environmentKey, selection: selection, recorded: recorded,
        holdsSecrets: holdsSecrets)
    }
  }

  /// Opens the database first, so `loadKey` learns how the store's key was protected before it loads one (and
  /// before it creates a key file that a store created under `AUTH_SIDECAR_KEY` must never get).
  /// `loadKey` gets the recorded protection and whether the store already holds sealed values.
  private init(directory: StateDirectory, loadKey: (KeySource?, Bool) throws -> StoreKey) throws {
    var notes = directory.notes
    let inUse = try StoreInUse.shared(directory)
    let (connection, identity) = try DatabaseFile.open(in: directory, notes: &notes)
    let key: StoreKey
    let sealer: Sealer
    do {
      let recorded = try KeyCheck.recordedProtection(connection)
      key = try loadKey(recorded, try recorded != nil || KeyCheck.holdsSealedValues(connection))
      sealer = Sealer(key: key.secret)
      try KeyCheck.verifyOrRecord(connection, sealer: sealer, protection: key.source, directory: directory.path)
    } catch {
      // A store that cannot be opened (its key missing, wrong or refused) is left byte for byte as found: closing
      // normally would checkpoint whatever the WAL holds into the database.
      connection.close(checkpoint: false)
      throw error
    }
    // A process killed between a write and its `afterReturning` scrub left removed secrets in the WAL.
    _ = try? connection.checkpointTruncatingWAL()
    self.directory = directory
    self.protectionLevel = key.source
    self.notes = notes + key.notes
    self.profileLocks = ProfileLock(stateDirectory: directory)
    self.sealer = sealer
    self.state = Mutex(OpenDatabase(connection: connection, identity: identity))
    self.inUse = inUse
  }

  /// The scrub's connection closes first, so the store's own is the last one and its close checkpoints the WAL
  /// away (what a process that leaves normally still owed a scrub).
  deinit { scrubbing.withLock { $0 = nil } }

  /// Runs `body` in one read transaction: every query sees the same snapshot.
  /// - Throws: `StorageError`, or whatever `body` throws.
  package func read<T>(_ body: (ReadTransaction) throws -> T) throws -> T {
    try transaction("BEGIN DEFERRED", ReadTransaction.init, scrub: .beforeReturning, body)!
  }

  /// Runs `body` in one BEGIN IMMEDIATE … COMMIT; rolled back if `body` throws. Taking the write lock up front
  /// means a busy store waits in the busy handler instead of failing a read-to-write upgrade.
  /// - Parameter scrub: when secrets the write removed leave the WAL.
  /// - Throws: `StorageError`, or whatever `body` throws.
  @discardableResult
  package func write<T>(
    scrub: ScrubTiming = .beforeReturning, sync: CommitSync = .beforeReturning, _ body: (WriteTransaction) throws -> T
  ) throws -> T {
    try transaction("BEGIN IMMEDIATE", WriteTransaction.init, scrub: scrub, sync: sync, body)!
  }

  /// Puts the `deferred` commits since the last sync on disk: syncs the WAL they were appended to.
  /// - Returns: false when nothing was pending or the sync failed (it then stays pending).
  @discardableResult
  package func syncDeferredCommits() -> Bool {
    let pending = state.withLock { open -> Bool in
      defer { open.syncPending = false }
      return open.syncPending
    }
    guard pending else { return false }
    return syncWAL()
  }

  /// Puts every commit made so far on disk, whether or not another thread is already syncing them: what a caller
  /// that must not acknowledge a `deferred` commit before it is durable waits for. (`syncDeferredCommits` returns at
  /// once when another call has taken the pending sync, before that call's sync has finished.)
  /// - Returns: false when the sync failed (it then stays pending).
  package func syncCommits() -> Bool {
    state.withLock { $0.syncPending = false }
    return syncWAL()
  }

  private func syncWAL() -> Bool {
    let synced = FileSystem.syncData(databasePath + "-wal")
    if !synced { state.withLock { $0.syncPending = true } }
    return synced
  }

  /// Whether a `deferred` commit waits for `syncDeferredCommits()`.
  package var syncIsPending: Bool { state.withLock { $0.syncPending } }

  /// Empties the WAL of the secrets an `afterReturning` write removed, then starts the next WAL so that the next
  /// commit syncs once (see `WALScrub`). Reads and writes meanwhile do not wait for it in this process (a write
  /// may wait in SQLite's busy handler).
  /// - Returns: false when nothing was pending or the WAL could not be emptied (the scrub then stays pending).
  @discardableResult
  package func scrubPendingSecrets() -> Bool {
    let (pending, unsynced) = state.withLock { open -> (FileSystem.Identity?, Bool) in
      guard open.scrubPending else { return (nil, false) }
      // The scrub's checkpoint syncs the WAL first: every deferred commit made before it starts is on disk after it.
      defer { (open.scrubPending, open.syncPending) = (false, false) }
      return (open.identity, open.syncPending)
    }
    guard let pending else { return false }
    let scrubbed = scrubbing.withLock { WALScrub.run(path: databasePath, identity: pending, kept: &$0) }
    if !scrubbed {
      state.withLock {
        guard $0.identity == pending else { return }
        $0.scrubPending = true
        if unsynced { $0.syncPending = true }
      }
    }
    return scrubbed
  }

  /// Whether a committed write left secrets in the WAL for `scrubPendingSecrets()` (a first login, which replaced
  /// nothing, did not).
  package var scrubIsPending: Bool { state.withLock { $0.scrubPending } }

  /// Runs `body` holding `profile`'s cross-process lock, waiting without blocking a thread. A refresh holds it
  /// across re-read → network refresh → write.
  /// - Throws: `StorageError.unavailable` ("lock timeout …"), `CancellationError`, or whatever `body` throws.
  package func withProfileLock<T>(
    _ profile: String, timeout: Duration = ProfileLock.defaultTimeout, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> T
  ) async throws -> T {
    try await profileLocks.withLock(profile, timeout: timeout, body)
  }

  /// Runs `body` in one transaction begun with `begin`. With `waits` off, nothing is done and nil is returned when
  /// doing it would wait: another thread is inside a transaction of this store, the connection must be (re)opened
  /// first, or another connection holds a lock SQLite would wait for.
  func transaction<Transaction: ReadTransaction, T>(
    _ begin: String, _ make: (SQLiteConnection, Sealer) -> Transaction, scrub: ScrubTiming,
    sync: CommitSync = .beforeReturning, waits: Bool = true, _ body: (Transaction) throws -> T
  ) throws -> T? {
    var result: T?
    if waits {
      try state.withLock { open in
        let connection = try currentConnection(&open)
        try run(begin, make, scrub: scrub, sync: sync, on: connection, &open, body) { result = $0 }
      }
      // Set on every path that does not throw.
      return result!
    }
    _ = try state.withLockIfAvailable { open in
      guard let connection = open.connection, FileSystem.identity(of: databasePath) == open.identity else { return }
      connection.waitsForLocks = false
      defer { connection.waitsForLocks = true }
      try run(begin, make, scrub: scrub, sync: sync, on: connection, &open, body) { result = $0 }
    }
    return result
  }

  /// One transaction on `connection`, whose value goes to `deliver`; nothing is delivered when `connection` was
  /// refused a lock it does not wait for (the transaction is rolled back then, as if it never ran).
  private func run<Transaction: ReadTransaction, T>(
    _ begin: String, _ make: (SQLiteConnection, Sealer) -> Transaction, scrub: ScrubTiming, sync: CommitSync,
    on connection: SQLiteConnection, _ open: inout OpenDatabase, _ body: (Transaction) throws -> T,
    deliver: (T) -> Void
  ) throws {
    if sync == .deferred { try connection.executePrepared("PRAGMA synchronous = OFF") }
    // Every other commit of this connection syncs, whatever happens to this one.
    defer { if sync == .deferred { try? connection.executePrepared("PRAGMA synchronous = FULL") } }
    do {
      try connection.executePrepared(begin)
      let transaction = make(connection, sealer)
      defer { transaction.close() }
      // A read takes its snapshot at its first statement: taken here, a refusal cannot reach the caller's closure.
      if !connection.waitsForLocks { _ = try connection.row("SELECT 1 FROM sqlite_schema LIMIT 1") { _ in () } }
      let value = try body(transaction)
      // The closure may have caught a CORRUPT error and carried on; the file is still damaged.
      if let damage = connection.damage { throw damage }
      // Nor may a refused lock the closure swallowed leave a half-read answer.
      if !connection.waitsForLocks, connection.wasRefusedBusy { throw StorageError.unavailable("store busy") }
      try connection.executePrepared("COMMIT")
      if sync == .deferred { open.syncPending = true }
      deliver(value)
      if connection.scrubAfterCommit {
        connection.scrubAfterCommit = false
        open.scrubPending = true
        // The write is committed and stays acknowledged: a WAL that another process keeps busy is
        // emptied by the next secret-removing write, the last close or the next open instead.
        if scrub == .beforeReturning {
          open.scrubPending = scrubbing.withLock { _ in (try? connection.checkpointTruncatingWAL()) != true }
        }
      }
    } catch {
      connection.scrubAfterCommit = false
      if connection.isInTransaction { try? connection.executePrepared("ROLLBACK") }
      if !connection.waitsForLocks, connection.wasRefusedBusy, connection.damage == nil { return }
      guard let damage = connection.damage, let identity = open.identity else { throw error }
      open = OpenDatabase()
      throw DatabaseFile.quarantine(connection, identity: identity, in: directory, damage: damage)
    }
  }

  /// The open connection, reopened when there is none (after a quarantine) or when the path no longer names the
  /// file it opened (another process quarantined it, or someone deleted it).
  private func currentConnection(_ open: inout OpenDatabase) throws -> SQLiteConnection {
    if let connection = open.connection {
      if FileSystem.identity(of: databasePath) == open.identity { return connection }
      // No checkpoint: the old file may be a quarantined one, kept as found.
      connection.close(checkpoint: false)
      open = OpenDatabase()
    }
    var notes: [String] = []
    let (connection, identity) = try DatabaseFile.open(in: directory, notes: &notes)
    // A fresh file (after a quarantine) records this key; a replaced one must have been made with it.
    try KeyCheck.verifyOrRecord(connection, sealer: sealer, protection: protectionLevel, directory: directory.path)
    open = OpenDatabase(connection: connection, identity: identity)
    return connection
  }
}
