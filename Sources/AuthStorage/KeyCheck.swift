/// What a store was created with: the key's protection (`env-key` or `key-file`) and a value sealed under the
/// key, recorded once in the `key_check` table.
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
  static func recordedProtection(_ connection: SQLiteConnection) throws -> StoreKey.ProtectionLevel? {
    try recorded(connection)?.protection
  }

  /// Whether a store without a record already holds sealed values (one made by an older build): its key must
  /// then already exist, and a key file is not created for it.
  static func holdsSealedValues(_ connection: SQLiteConnection) throws -> Bool {
    try sealedSample(connection) != nil
  }

  /// Refuses a key source other than the one the store was created with, naming both.
  /// - Throws: `StorageError.invalidConfiguration`.
  static func refuseChangedSource(
    recorded: StoreKey.ProtectionLevel?, now: StoreKey.ProtectionLevel, directory: String
  ) throws {
    guard let recorded, recorded != now else { return }
    switch recorded {
    case .envKey:
      throw StorageError(
        .invalidConfiguration,
        "the store in \(directory) was created with \(StoreKey.environmentVariable) (protection env-key), which "
          + "is not set now; set it to the same key (no key file was created and nothing was written)",
        reason: "key_source_changed")
    case .keyFile:
      throw StorageError(
        .invalidConfiguration,
        "the store in \(directory) was created with its key file \(KeyFile.name) (protection key-file), but "
          + "\(StoreKey.environmentVariable) is set now; unset it to use the key file (nothing was written)",
        reason: "key_source_changed")
    }
  }

  /// Checks `sealer`'s key against the recorded check value, or records mode and check value when the store has
  /// none yet. A store from an older build is checked against one of its sealed values first, so a key that
  /// already changed is not recorded as the right one.
  /// - Throws: `.invalidConfiguration` for a changed source, `.corrupt` for a wrong key; SQLite failures.
  static func verifyOrRecord(
    _ connection: SQLiteConnection, sealer: Sealer, protection: StoreKey.ProtectionLevel, directory: String
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

  private static func recorded(_ connection: SQLiteConnection) throws
    -> (protection: StoreKey.ProtectionLevel?, check: [UInt8])?
  {
    try connection.row("SELECT protection, check_value FROM key_check WHERE id = 1") {
      (StoreKey.ProtectionLevel(rawValue: $0.text(0)), $0.blob(1))
    }
  }

  private static func verify(
    _ found: (protection: StoreKey.ProtectionLevel?, check: [UInt8]), sealer: Sealer,
    protection: StoreKey.ProtectionLevel, directory: String
  ) throws {
    try refuseChangedSource(recorded: found.protection, now: protection, directory: directory)
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

  private static func wrongKey(_ protection: StoreKey.ProtectionLevel, _ directory: String) -> StorageError {
    let source = protection == .envKey ? StoreKey.environmentVariable : "the key file \(KeyFile.name)"
    return StorageError(
      .corrupt,
      "wrong key: \(source) is not the key the store in \(directory) was created with, so its secrets cannot be "
        + "decrypted; restore the original key (nothing was written)", reason: "wrong_key")
  }
}
