/// Which source a store's key comes from this time, decided before any key is loaded or created.
///
/// An explicit `storage.keySource` is taken as it is (or refused when its key cannot be there). `auto` takes
/// `AUTH_SIDECAR_KEY` when it is set, else the source the store records, else — for a new store — the keyring
/// when a Secret Service answers and the key file when none does. A keyring that answers but fails (locked, or
/// too slow) is an error, never a reason to fall back to the file.
struct KeyChoice {
  let source: KeySource
  /// The keyring's answer when `auto` already asked it, so it is not asked twice.
  var keyringLookup: KeyringLookup?
  var notes: [String] = []

  /// - Throws: `StorageError.invalidConfiguration` when the setting names a source whose key cannot be used;
  ///   what the keyring throws when `auto` asks it.
  init(
    setting: KeySource?, environmentKey: StoreKey?, recorded: KeySource?, holdsSecrets: Bool,
    directory: StateDirectory, keyring: any Keyring
  ) throws {
    if let setting {
      try Self.refuseConflict(setting, environmentKeySet: environmentKey != nil)
      source = setting
    } else if environmentKey != nil {
      source = .environment
    } else if let recorded {
      // A store made with AUTH_SIDECAR_KEY, which is not set now: the key file stands in for "whatever else" and
      // the pinning check refuses it with the message that says to set the variable.
      source = recorded == .environment ? .file : recorded
    } else if holdsSecrets || FileSystem.lstatus(directory.file(KeyFile.name)) != nil {
      // An older build's store, or a key file already made for this one: keep using it.
      source = .file
    } else {
      let lookup = try keyring.lookup(directory.path)
      if case .unreachable(let why) = lookup {
        source = .file
        notes = ["no keyring to keep the store key in (\(why.message)); using the key file \(KeyFile.name)"]
      } else {
        source = .keyring
        keyringLookup = lookup
      }
    }
  }

  private static func refuseConflict(_ setting: KeySource, environmentKeySet: Bool) throws {
    switch (setting, environmentKeySet) {
    case (.environment, false):
      throw StorageError(
        .invalidConfiguration,
        "storage.keySource is \"env\", but \(StoreKey.environmentVariable) is not set; set it to the store key "
          + "(nothing was written)", reason: "key_source_unavailable")
    case (.file, true), (.keyring, true):
      throw StorageError(
        .invalidConfiguration,
        "\(StoreKey.environmentVariable) is set, but storage.keySource is \"\(setting.settingName)\"; unset it, or "
          + "set storage.keySource to \"env\" or \"auto\" (nothing was written)", reason: "key_source_conflict")
    default:
      return
    }
  }
}
