/// What a store was created with: the key's protection (`env-key`, `key-file` or `keyring`) and a value sealed
/// under the key, recorded once in the `key_check` table (and changed only by `Rekey`).
///
/// Without it a store created under `AUTH_SIDECAR_KEY` and restarted without it would quietly create
/// `store.key` and seal new logins under a second key, while the old session answered `storage_corrupt`. With
/// it, a changed key source is a configuration error and a wrong key is `corrupt`, both found before anything
/// is written or any key file is created.
enum KeyCheck {
  /// The sealed plaintext; the AEAD tag, not the text, proves the key.
  private static let plaintext = Array("auth-sidecar key check".utf8)
  private static let context = (table: "key_check", column: "check_value", row: "1")

  /// The protection the store records, or nil when it records none (new, or created by an older build).
  static func recordedProtection(_ connection: SQLiteConnection) throws -> KeySource? {
    try recorded(connection)?.protection
  }

  /// Whether a store without a record already holds sealed values (one made by an older build): its key must
  /// then already exist, and a key file is not created for it.
  static func holdsSealedValues(_ connection: SQLiteConnection) throws -> Bool {
    try sealedSample(connection) != nil
  }

  /// Refuses a key source other than the one the store was created with, naming both and what to do.
  /// - Parameter setting: `storage.keySource`, nil for `auto`.
  /// - Throws: `StorageError.invalidConfiguration`.
  static func refuseChangedSource(recorded: KeySource?, now: KeySource, setting: KeySource?, directory: String)
    throws
  {
    guard let recorded, recorded != now else { return }
    let created = "the store in \(directory) was created with \(recorded.described) (protection \(recorded.rawValue))"
    let rekey = "or move its key with `auth-sidecar store rekey --to \(now.settingName)`"
    let problem: String
    if recorded == .environment {
      problem = "which is not set now; set it to the same key"
    } else if now == .environment {
      problem = "but \(StoreKey.environmentVariable) is set now; unset it to use \(recorded.described)"
    } else {
      problem = "but storage.keySource is \"\(setting?.settingName ?? "auto")\"; set it to "
        + "\"\(recorded.settingName)\" or \"auto\""
    }
    throw StorageError(
      .invalidConfiguration, "\(created), \(problem), \(rekey) (no key was created and nothing was written)",
      reason: "key_source_changed")
  }

  /// Checks `sealer`'s key against the recorded check value, or records mode and check value when the store has
  /// none yet. A store from an older build is checked against one of its sealed values first, so a key that
  /// already changed is not recorded as the right one.
  /// - Throws: `.invalidConfiguration` for a changed source, `.corrupt` for a wrong key; SQLite failures.
  static func verifyOrRecord(
    _ connection: SQLiteConnection, sealer: Sealer, protection: KeySource, directory: String
  ) throws {
    // Fast path without the write lock: every open after the first finds the record.
    if let found = try recorded(connection) {
      return try verify(found, sealer: sealer, protection: protection, directory: directory)
    }
    try connection.execute("BEGIN IMMEDIATE")
    do {
      if let found = try recorded(connection) {
        try verify(found, sealer: sealer, protection: protection, directory: directory)
      } else {
        try verifyExistingSecrets(connection, sealer: sealer, directory: directory)
        let check = try sealer.seal(plaintext, context.table, context.column, row: context.row)
        try connection.run(
          "INSERT INTO key_check (id, protection, check_value) VALUES (1, ?, ?)",
          [.text(protection.rawValue), .blob(check)])
      }
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Records `protection` and a check value under `sealer`'s key in place of the old ones, inside the caller's
  /// transaction: `Rekey`'s last write before it commits.
  static func replace(_ connection: SQLiteConnection, sealer: Sealer, protection: KeySource) throws {
    let check = try sealer.seal(plaintext, context.table, context.column, row: context.row)
    try connection.run(
      "UPDATE key_check SET protection = ?, check_value = ? WHERE id = 1", [.text(protection.rawValue), .blob(check)])
  }

  private static func recorded(_ connection: SQLiteConnection) throws
    -> (protection: KeySource?, check: [UInt8])?
  {
    try connection.row("SELECT protection, check_value FROM key_check WHERE id = 1") {
      (KeySource(rawValue: $0.text(0)), $0.blob(1))
    }
  }

  private static func verify(
    _ found: (protection: KeySource?, check: [UInt8]), sealer: Sealer,
    protection: KeySource, directory: String
  ) throws {
    try refuseChangedSource(recorded: found.protection, now: protection, setting: protection, directory: directory)
    guard (try? sealer.open(found.check, context.table, context.column, row: context.row)) != nil else {
      throw wrongKey(protection, directory)
    }
  }

  /// One sealed value of an older store, opened with the key about to be recorded.
  private static func verifyExistingSecrets(_ connection: SQLiteConnection, sealer: Sealer, directory: String)
    throws
  {
    guard let sample = try sealedSample(connection) else { return }
    guard (try? sealer.open(sample.1, "sessions", "access_token", row: sample.0)) != nil else {
      throw StorageError(
        .corrupt,
        "the key in use does not decrypt the store in \(directory): was \(StoreKey.environmentVariable) or "
          + "\(KeyFile.name) changed since it was written? (nothing was written)", reason: "wrong_key")
    }
  }

  private static func sealedSample(_ connection: SQLiteConnection) throws -> (String, [UInt8])? {
    try connection.row("SELECT profile, access_token FROM sessions LIMIT 1") { ($0.text(0), $0.blob(1)) }
  }

  private static func wrongKey(_ protection: KeySource, _ directory: String) -> StorageError {
    let source = protection.described
    return StorageError(
      .corrupt,
      "wrong key: \(source) is not the key the store in \(directory) was created with, so its secrets cannot be "
        + "decrypted; restore the original key (nothing was written)", reason: "wrong_key")
  }
}
