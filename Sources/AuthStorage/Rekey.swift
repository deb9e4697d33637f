import AuthCrypto
import Glibc

/// `auth-sidecar store rekey --to SOURCE`: moves a store to a new key kept in another place.
///
/// The order makes every interruption safe — the store opens afterwards with one of the two keys:
/// 1. the new key is kept in its new home (written, synced) while the store still records the old source;
/// 2. one transaction re-seals every sealed value and the key check under the new key and records the new source;
/// 3. only then is the old key removed (the key file deleted, or the keyring item cleared).
/// Interrupted before 2 commits, the store is as it was (a new key file or keyring item is left unused, and a
/// second `rekey` reuses it); after, it is on the new key, and a second `rekey` to the same source removes what
/// the first left of the old key.
package enum Rekey {
  /// The points between steps, where a test-only hook may stop the process to prove the order safe.
  package enum Step: String, Sendable, CaseIterable {
    case newKeyKept = "new-key-kept"
    case resealed = "resealed"
    case committed = "committed"
  }

  /// - Parameters:
  ///   - environment: where `AUTH_SIDECAR_KEY` is read when the store is on it or moves to it.
  ///   - pause: called at each `Step`; does nothing outside tests (which stop there, or throw as a crash would).
  /// - Returns: what was done, in lines for the operator; never key material.
  /// - Throws: `StorageError`: `.invalidConfiguration` for a source that cannot be used, `.corrupt` for a missing
  ///   or wrong old key, `.unavailable` for a keyring or file that cannot be reached or written.
  package static func run(
    directory: StateDirectory, to target: KeySource, environment: [String: String], keyring: any Keyring,
    pause: (Step) throws -> Void = { _ in }
  ) throws -> [String] {
    var notes: [String] = []
    let exclusive = try StoreInUse.exclusive(directory)
    defer { withExtendedLifetime(exclusive) {} }
    let (connection, _) = try DatabaseFile.open(in: directory, notes: &notes)
    defer { connection.close(checkpoint: true) }
    guard let recorded = try KeyCheck.recordedProtection(connection) else {
      throw StorageError(
        .invalidConfiguration,
        "the store in \(directory.path) has no key yet (it was never used, or an older build made it: open it "
          + "once first); choose where its key goes with storage.keySource instead")
    }
    let environmentKey = try StoreKey(environment: environment)
    if environmentKey != nil, recorded != .environment, target != .environment {
      throw StorageError(
        .invalidConfiguration,
        "\(StoreKey.environmentVariable) is set, but the store is on \(recorded.described) and moves to "
          + "\(target.described); unset it (nothing was written)")
    }
    guard recorded != target else {
      return try finishEarlierRekey(directory, on: target, keyring: keyring)
        + ["the store in \(directory.path) is already protected by \(target.rawValue)"]
    }
    let old = try oldKey(recorded, directory: directory, environmentKey: environmentKey, keyring: keyring)
    try KeyCheck.verifyOrRecord(connection, sealer: Sealer(key: old), protection: recorded, directory: directory.path)
    let new = try keepNewKey(target, directory: directory, environmentKey: environmentKey, keyring: keyring)
    try pause(.newKeyKept)

    let oldSealer = Sealer(key: old)
    let newSealer = Sealer(key: new)
    try connection.execute("BEGIN IMMEDIATE")
    do {
      let count = try SealedColumns.reseal(connection, from: oldSealer, to: newSealer)
      try KeyCheck.replace(connection, sealer: newSealer, protection: target)
      try pause(.resealed)
      try connection.execute("COMMIT")
      notes.append("re-sealed \(count) values under the new key; the store is protected by \(target.rawValue)")
    } catch {
      if connection.isInTransaction { try? connection.execute("ROLLBACK") }
      throw error
    }
    // The old ciphertexts' page images leave the WAL too.
    _ = try? connection.checkpointTruncatingWAL()
    try pause(.committed)
    notes += try removeOldKey(recorded, directory: directory, keyring: keyring)
    if target == .environment {
      notes.append("from now on \(StoreKey.environmentVariable) must hold this key whenever the store is opened")
    }
    return notes
  }

  private static func oldKey(
    _ source: KeySource, directory: StateDirectory, environmentKey: StoreKey?, keyring: any Keyring
  ) throws -> SecretBytes {
    switch source {
    case .environment:
      guard let environmentKey else {
        throw StorageError(
          .invalidConfiguration,
          "the store in \(directory.path) is on \(StoreKey.environmentVariable), which is not set; set it to the "
            + "store's current key (nothing was written)", reason: "key_source_changed")
      }
      return environmentKey.secret
    case .file:
      guard let key = try KeyFile.load(directory.file(KeyFile.name)) else {
        throw StorageError(
          .corrupt, "the store in \(directory.path) is on the key file \(KeyFile.name), which is missing",
          reason: "key_missing")
      }
      return key
    case .keyring:
      switch try keyring.lookup(directory.path) {
      case .found(let key): return key
      case .missing: throw KeyringKey.missing(directory.path)
      case .unreachable(let error): throw error
      }
    }
  }

  /// The new key, kept in its home before anything in the store changes. A key file or keyring item left by an
  /// interrupted earlier `rekey` is reused: nothing was sealed under it.
  private static func keepNewKey(
    _ target: KeySource, directory: StateDirectory, environmentKey: StoreKey?, keyring: any Keyring
  ) throws -> SecretBytes {
    switch target {
    case .environment:
      guard let environmentKey else {
        throw StorageError(
          .invalidConfiguration,
          "moving the store to \(StoreKey.environmentVariable) needs the new key in it: set it to 64 random hex "
            + "digits (e.g. from `openssl rand -hex 32`) and run again (nothing was written)")
      }
      return environmentKey.secret
    case .file:
      var notes: [String] = []
      return try KeyFile.loadOrCreate(directory.file(KeyFile.name), in: directory.path, notes: &notes)
    case .keyring:
      return try KeyringKey.load(keyring, directory: directory, prefetched: nil, mayCreate: true).secret
    }
  }

  private static func removeOldKey(_ source: KeySource, directory: StateDirectory, keyring: any Keyring) throws
    -> [String]
  {
    switch source {
    case .environment:
      return ["\(StoreKey.environmentVariable) is no longer needed: remove it from the environment"]
    case .file:
      return try removeKeyFile(directory)
    case .keyring:
      return try keyring.remove(for: directory.path) ? ["removed the old key from the keyring"] : []
    }
  }

  /// A second run to the source the store is on already: removes what an interrupted run left of the old key.
  private static func finishEarlierRekey(_ directory: StateDirectory, on source: KeySource, keyring: any Keyring)
    throws -> [String]
  {
    var notes = source == .file ? [] : try removeKeyFile(directory)
    if source != .keyring, case .found = try? keyring.lookup(directory.path) {
      if try keyring.remove(for: directory.path) { notes.append("removed an unused key from the keyring") }
    }
    return notes
  }

  private static func removeKeyFile(_ directory: StateDirectory) throws -> [String] {
    let path = directory.file(KeyFile.name)
    guard unlink(path) == 0 else {
      if errno == ENOENT { return [] }
      throw StorageError.unavailable("cannot remove the old key file \(path): \(FileSystem.errnoText(errno))")
    }
    try FileSystem.syncDirectory(directory.path)
    return ["removed the old key file \(path)"]
  }
}
