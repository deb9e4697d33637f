import AuthCrypto

/// Where a store key can be kept instead of a file: the desktop's Secret Service in production
/// (`SecretServiceKeyring`), an in-memory one in tests of how a key source is chosen and migrated.
///
/// Every call may block while the service asks the user to unlock; implementations bound that wait and throw
/// `StorageError.unavailable` rather than hang.
package protocol Keyring: Sendable {
  /// The key kept for the store in `directory`.
  /// - Throws: `StorageError.unavailable` (reason `keyring_locked`, `keyring_timeout`, `keyring_error`).
  func lookup(_ directory: String) throws -> KeyringLookup

  /// Keeps `key` for the store in `directory`, replacing any key kept for it before.
  /// - Throws: `StorageError.unavailable`, with the reasons of `lookup` or why the keyring cannot be reached.
  func store(_ key: SecretBytes, for directory: String) throws

  /// Removes the key kept for `directory`. - Returns: whether there was one.
  /// - Throws: `StorageError.unavailable`.
  @discardableResult
  func remove(for directory: String) throws -> Bool
}

package enum KeyringLookup: Sendable {
  case found(SecretBytes)
  /// The keyring answered and holds no key for this store.
  case missing
  /// No keyring to ask: no D-Bus session, no Secret Service on it, or no libsecret. The error says which
  /// (reasons `keyring_no_session`, `keyring_no_service`, `keyring_unavailable`).
  case unreachable(StorageError)
}
