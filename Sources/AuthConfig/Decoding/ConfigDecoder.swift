import AuthJSON

/// The top level of the config: `{"profiles": {NAME: PROFILE, ...}, "storage": {...}}`.
enum ConfigDecoder {
  static let rootKeys = ["profiles", "storage"]

  /// The profiles, then the storage settings.
  /// - Throws: `SettingError` at the first problem found.
  static func config(from document: JSONValue) throws(SettingError)
    -> (profiles: [ProfileConfig], storage: StorageConfig)
  {
    let profiles = try profiles(from: document)
    return (profiles, try StorageDecoder.storage(from: try ConfigObject(document, at: .root, allowedKeys: rootKeys)))
  }

  /// The profiles in document order.
  /// - Throws: `SettingError` at the first problem found, reading the document from the top down.
  static func profiles(from document: JSONValue) throws(SettingError) -> [ProfileConfig] {
    let root = try ConfigObject(document, at: .root, allowedKeys: rootKeys)
    guard let profiles = try root.object("profiles", allowedKeys: nil) else {
      throw SettingError(JSONPath.root.appending("profiles"), "is required: an object of profiles by name")
    }
    guard !profiles.members.isEmpty else {
      throw SettingError(profiles.path, "must contain at least one profile")
    }
    var result: [ProfileConfig] = []
    for member in profiles.members {
      let path = profiles.path.appending(member.key)
      guard ProfileName(member.key) != nil else {
        throw SettingError(path, "is not a valid profile name: use 1 to 64 characters from A-Z a-z 0-9 _ . -")
      }
      result.append(try ProfileDecoder.profile(named: member.key, from: member.value, at: path))
    }
    return result
  }
}
