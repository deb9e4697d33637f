import AuthCrypto

/// The store key kept in the keyring: read, or created on a new store's first use.
enum KeyringKey {
  /// Far above one lookup and one store at the keyring's own timeout: the lock only orders processes creating
  /// the key of the same store at once.
  static let creationLockTimeout: Duration = .seconds(120)

  /// - Parameters:
  ///   - prefetched: the keyring's answer when the caller already asked it.
  ///   - mayCreate: whether the store is new, so a missing item is created rather than reported.
  /// - Throws: `StorageError.corrupt` (`key_missing`) when the item of an existing store is gone; what the keyring
  ///   throws, or its reason it cannot be reached.
  static func load(_ keyring: any Keyring, directory: StateDirectory, prefetched: KeyringLookup?, mayCreate: Bool)
    throws -> StoreKey
  {
    switch try prefetched ?? keyring.lookup(directory.path) {
    case .found(let key): return StoreKey(secret: key, source: .keyring)
    case .unreachable(let error): throw error
    case .missing:
      guard mayCreate else { throw missing(directory.path) }
      // Under a lock, looking again: two processes opening a new store at once must not each keep a key of their
      // own, the second replacing the first's item after the first recorded its key in the store.
      let locks = ProfileLock(stateDirectory: directory).directory
      return try FileLock.withLock("\(locks)/keyring-key.lock", in: locks, timeout: creationLockTimeout) {
        switch try keyring.lookup(directory.path) {
        case .found(let key): return StoreKey(secret: key, source: .keyring)
        case .unreachable(let error): throw error
        case .missing:
          let key: SecretBytes
          do { key = try SecretBytes(randomCount: StoreKey.byteCount) } catch {
            throw StorageError.unavailable("cannot generate a store key: \(error)")
          }
          try keyring.store(key, for: directory.path)
          return StoreKey(secret: key, source: .keyring, notes: ["created the store key in the keyring"])
        }
      }
    }
  }

  static func missing(_ directory: String) -> StorageError {
    StorageError(
      .corrupt,
      "the store in \(directory) was created with its key in the keyring, which has no item for it now (removed?); "
        + "its secrets cannot be decrypted without it: restore the item (no new key was created and nothing was "
        + "written)", reason: "key_missing")
  }
}
