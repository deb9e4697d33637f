import AuthStorage

/// The config's `storage` object: where the store key is kept.
package struct StorageConfig: Sendable, Equatable {
  /// `storage.keySource`: nil for `auto` (the default; see `KeySelection`).
  package var keySource: KeySource?
  /// `storage.keyringTimeoutSeconds`: how long a keyring call may wait (for the service, or for the person at
  /// its unlock prompt) before the request is answered `storage_unavailable`.
  package var keyringTimeoutSeconds: Int

  package static let defaultKeyringTimeoutSeconds = 30

  package init(keySource: KeySource? = nil, keyringTimeoutSeconds: Int = defaultKeyringTimeoutSeconds) {
    self.keySource = keySource
    self.keyringTimeoutSeconds = keyringTimeoutSeconds
  }
}
