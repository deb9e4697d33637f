import Glibc

/// `<state dir>/store.sqlite3`: created 0600 by us (SQLite would use 0644 less the umask), opened without
/// following symlinks, configured, migrated, and moved aside when it turns out to be damaged.
enum DatabaseFile {
  static let name = "store.sqlite3"
  static let companions = ["-wal", "-shm"]

  typealias Opened = (connection: SQLiteConnection, identity: FileSystem.Identity)

  /// An open, configured, migrated connection and the identity of the file it opened.
  ///
  /// Runs under the store's cross-process lock: two processes converting a brand-new file to WAL at once get
  /// SQLITE_BUSY straight away (SQLite skips the busy handler where waiting could deadlock), and the lock also
  /// keeps an opener and a quarantine from interleaving.
  /// - Throws: `StorageError` `.unavailable` for an unusable file or a newer schema, `.corrupt` (after moving
  ///   the damaged file aside) for a damaged one.
  static func open(in directory: StateDirectory, notes: inout [String]) throws -> Opened {
    var found: [String] = []
    let result = try withStoreLock(directory) { () throws -> Opened in
      let path = directory.file(name)
      let identity = try prepare(path, in: directory.path, notes: &found)
      let connection = try SQLiteConnection(path: path)
      do {
        try configure(connection)
        try Migrations.run(on: connection)
      } catch {
        guard let damage = connection.damage else { throw error }
        connection.close(checkpoint: false)
        throw moveAside(path, identity: identity, in: directory, damage: damage)
      }
      return (connection, identity)
    }
    notes += found
    return result
  }

  /// Closes a damaged connection without checkpointing, then renames the file and its -wal/-shm to
  /// `store.sqlite3.corrupt-<unix time>[-wal|-shm]`, so it is kept for inspection and the next open starts fresh.
  static func quarantine(
    _ connection: SQLiteConnection, identity: FileSystem.Identity, in directory: StateDirectory, damage: StorageError
  ) -> StorageError {
    connection.close(checkpoint: false)
    do {
      return try withStoreLock(directory) {
        moveAside(directory.file(name), identity: identity, in: directory, damage: damage)
      }
    } catch {
      return StorageError(.corrupt, "\(damage.message); could not move it aside: \(error)")
    }
  }

  /// Only moves the file the damaged connection opened: if another process got there first (and perhaps already
  /// created a fresh store at the path), nothing is moved. Call with the store lock held.
  private static func moveAside(
    _ path: String, identity: FileSystem.Identity, in directory: StateDirectory, damage: StorageError
  ) -> StorageError {
    guard FileSystem.identity(of: path) == identity else {
      return StorageError(.corrupt, "\(damage.message); another process has already moved it aside")
    }
    let target = freeQuarantineName(path)
    guard rename(path, target) == 0 else {
      return StorageError(.corrupt, "\(damage.message); could not move it aside: \(FileSystem.errnoText(errno))")
    }
    for suffix in companions { rename(path + suffix, target + suffix) }
    try? FileSystem.syncDirectory(directory.path)
    return StorageError(
      .corrupt, "\(damage.message); moved aside to \(target); the next open starts a fresh store",
      quarantinedPath: target)
  }

  private static func withStoreLock<T>(_ directory: StateDirectory, _ body: () throws -> T) throws -> T {
    try FileLock.withLock(directory.file("locks/store.lock"), in: directory.file("locks"), timeout: .seconds(15), body)
  }

  /// Creates the file 0600 if missing; refuses a symlink or a foreign owner; tightens a looser mode.
  private static func prepare(_ path: String, in directory: String, notes: inout [String]) throws
    -> FileSystem.Identity
  {
    while true {
      if let status = FileSystem.lstatus(path) {
        if FileSystem.isSymlink(status) {
          throw StorageError.unavailable("database \(path) is a symlink; refusing to use it")
        }
        try FileSystem.checkPrivateFile(status, path, "database")
        for file in [path] + companions.map({ path + $0 }) { try tighten(file, notes: &notes) }
        return FileSystem.Identity(status)
      }
      guard errno == ENOENT else {
        throw StorageError.unavailable("cannot stat database \(path): \(FileSystem.errnoText(errno))")
      }
      setAsideOrphans(of: path, notes: &notes)
      let fd = FileSystem.open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
      guard fd >= 0 else {
        if errno == EEXIST { continue }  // another process created it first: check theirs
        throw StorageError.unavailable("cannot create database \(path): \(FileSystem.errnoText(errno))")
      }
      let changed = fchmod(fd, 0o600) == 0 && fsync(fd) == 0
      let code = errno
      close(fd)
      guard changed else {
        throw StorageError.unavailable("cannot prepare database \(path): \(FileSystem.errnoText(code))")
      }
      try FileSystem.syncDirectory(directory)
    }
  }

  /// Owner-only for an existing file; a missing -wal or -shm is fine (SQLite creates them with the db's mode).
  private static func tighten(_ path: String, notes: inout [String]) throws {
    let fd = FileSystem.open(path, O_RDONLY | O_NONBLOCK)
    guard fd >= 0 else {
      if errno == ENOENT { return }
      if errno == ELOOP { throw StorageError.unavailable("\(path) is a symlink; refusing to use it") }
      throw StorageError.unavailable("cannot open \(path): \(FileSystem.errnoText(errno))")
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw StorageError.unavailable("cannot stat \(path): \(FileSystem.errnoText(errno))")
    }
    try FileSystem.checkPrivateFile(status, path, "database file")
    if let note = try FileSystem.tightenFile(fd: fd, status, path) { notes.append(note) }
  }

  /// A -wal left without its database (someone deleted only the main file) would be replayed into the new empty
  /// database; move such leftovers aside instead of deleting anything.
  private static func setAsideOrphans(of path: String, notes: inout [String]) {
    for suffix in companions where FileSystem.lstatus(path + suffix) != nil {
      let target = "\(path)\(suffix).orphan-\(time(nil))"
      if rename(path + suffix, target) == 0 { notes.append("moved leftover \(path)\(suffix) aside to \(target)") }
    }
  }

  private static func configure(_ connection: SQLiteConnection) throws {
    // The first statement reads the header, so a file that is not a database fails here with NOTADB.
    let mode = try connection.row("PRAGMA journal_mode = WAL") { $0.text(0) }
    guard mode?.lowercased() == "wal" else {
      throw StorageError.unavailable("cannot switch \(connection.path) to WAL (journal mode \(mode ?? "?"))")
    }
    // FULL: a commit is on disk (WAL synced) before write() returns, so an acknowledged rotated refresh token
    // survives power loss. secure_delete: logged-out rows are zeroed, not left in free pages.
    try connection.execute(
      """
      PRAGMA synchronous = FULL;
      PRAGMA foreign_keys = ON;
      PRAGMA secure_delete = ON;
      PRAGMA trusted_schema = OFF;
      PRAGMA journal_size_limit = 1048576;
      """)
  }

  private static func freeQuarantineName(_ path: String) -> String {
    let base = "\(path).corrupt-\(time(nil))"
    var candidate = base
    var counter = 1
    while FileSystem.lstatus(candidate) != nil {
      counter += 1
      candidate = "\(base).\(counter)"
    }
    return candidate
  }
}
