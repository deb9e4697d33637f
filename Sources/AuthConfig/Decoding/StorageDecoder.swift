import AuthStorage

/// `storage`: `{"keySource": "auto"|"env"|"keyring"|"file", "keyringTimeoutSeconds": 1-300}`.
enum StorageDecoder {
  static let keys = ["keySource", "keyringTimeoutSeconds"]

  static func storage(from root: ConfigObject) throws(SettingError) -> StorageConfig {
    guard let object = try root.object("storage", allowedKeys: keys) else { return StorageConfig() }
    var config = StorageConfig()
    if let name = try object.string("keySource"), name != "auto" {
      guard let source = KeySource(settingName: name) else {
        throw SettingError(object.path.appending("keySource"), "must be \"auto\", \"env\", \"keyring\" or \"file\"")
      }
      config.keySource = source
    }
    config.keyringTimeoutSeconds =
      try object.integer("keyringTimeoutSeconds", in: 1...300) ?? StorageConfig.defaultKeyringTimeoutSeconds
    return config
  }
}
