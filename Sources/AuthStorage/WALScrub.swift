/// Empties the WAL of secrets that committed writes removed, on a connection of its own: the store's connection
/// (and its lock) stays free meanwhile, so the reads that follow a login never wait for the scrub's syncs.
enum WALScrub {
  /// Opens a second connection to `path`, checkpoints and truncates the WAL, starts the next one
  /// (`SQLiteConnection.startWAL`) and closes again, without a checkpoint of its own.
  /// - Returns: false when the WAL could not be emptied (another process still reads an old snapshot, or the path
  ///   no longer names the file `identity` describes: a quarantined or replaced store is not ours to change).
  static func run(path: String, identity: FileSystem.Identity) -> Bool {
    guard let connection = try? SQLiteConnection(path: path) else { return false }
    defer { connection.close(checkpoint: false) }
    guard FileSystem.identity(of: path) == identity else { return false }
    // The database file is synced before the WAL is truncated, whatever this build's default.
    guard (try? connection.execute("PRAGMA synchronous = FULL")) != nil,
      (try? connection.checkpointTruncatingWAL()) == true
    else { return false }
    try? connection.startWAL()
    return true
  }
}
