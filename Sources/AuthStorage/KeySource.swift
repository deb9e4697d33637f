/// Where the store key comes from — the protection `status` reports and each store records when it is created.
///
/// The raw value is the protection's name in `status` and in the store's `key_check` record; `settingName` is
/// its name in the config's `storage.keySource` (whose default, `auto`, is no source of its own: see
/// `KeySelection`).
package enum KeySource: String, Sendable, CaseIterable {
  /// `AUTH_SIDECAR_KEY`: nothing on disk can decrypt the store by itself.
  case environment = "env-key"
  /// `store.key`, 0600 beside the database: protects copies of the database alone.
  case file = "key-file"
  /// An item of the desktop keyring (Secret Service), which keeps it encrypted under the login password.
  case keyring = "keyring"

  package var settingName: String {
    switch self {
    case .environment: "env"
    case .file: "file"
    case .keyring: "keyring"
    }
  }

  package init?(settingName: String) {
    guard let found = Self.allCases.first(where: { $0.settingName == settingName }) else { return nil }
    self = found
  }

  /// The key's home in words, for messages.
  var described: String {
    switch self {
    case .environment: StoreKey.environmentVariable
    case .file: "its key file \(KeyFile.name)"
    case .keyring: "the keyring (Secret Service)"
    }
  }
}

/// How a store's key is chosen: the `storage.keySource` setting (nil for `auto`) and the keyring to use.
///
/// `auto` takes `AUTH_SIDECAR_KEY` when it is set; else the source the store was created with; for a new store the
/// keyring when a Secret Service answers, else the key file. An explicit source is that source or an error, never
/// another one.
package struct KeySelection: Sendable {
  package var setting: KeySource?
  package var keyring: any Keyring

  package init(setting: KeySource? = nil, keyring: any Keyring = SecretServiceKeyring()) {
    self.setting = setting
    self.keyring = keyring
  }
}
