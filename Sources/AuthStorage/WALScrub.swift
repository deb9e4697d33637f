/// Empties the WAL of secrets that committed writes removed, on a connection of its own: the store's connection
/// (and its lock) stays free meanwhile, so the reads that follow a login never wait for the scrub's syncs.
///
/// The connection stays open between scrubs (`WALScrub` values live in the store's scrub lock): opening one
/// parses the whole schema again, most of a scrub's work. It is dropped as soon as the path names another file,
/// and always closed without a checkpoint of its own, so a quarantined or replaced file is never written by it.
final class WALScrub {
  private let connection: SQLiteConnection
  /// The file the connection opened.
  private let identity: FileSystem.Identity

  private init(connection: SQLiteConnection, identity: FileSystem.Identity) {
    self.connection = connection
    self.identity = identity
  }

  deinit { connection.close(checkpoint: false) }

  /// Checkpoints and truncates the WAL of `path`, then starts the next one (`SQLiteConnection.startWAL`), on
  /// `kept`'s connection when it opened the same file, else on a new one left in `kept`.
  /// - Returns: false when the WAL could not be emptied (another process still reads an old snapshot, or the path
  ///   no longer names the file `identity` describes: a quarantined or replaced store is not ours to change).
  static func run(path: String, identity: FileSystem.Identity, kept: inout WALScrub?) -> Bool {
    if let scrub = kept, scrub.identity != identity || FileSystem.identity(of: path) != identity { kept = nil }
    if kept == nil {
      guard let connection = try? SQLiteConnection(path: path) else { return false }
      let scrub = WALScrub(connection: connection, identity: identity)
      guard FileSystem.identity(of: path) == identity,
        // The database file is synced before the WAL is truncated, whatever this build's default.
        (try? connection.execute("PRAGMA synchronous = FULL")) != nil
      else { return false }
      kept = scrub
    }
    guard let scrub = kept else { return false }
    do {
      guard try scrub.connection.checkpointTruncatingWAL() else { return false }
    } catch {
      // Not a busy reader: something is wrong with this connection or the file; the next scrub starts afresh.
      kept = nil
      return false
    }
    try? scrub.connection.startWAL()
    return true
  }
}
