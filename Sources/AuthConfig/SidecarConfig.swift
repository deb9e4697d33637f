/// The profiles the sidecar serves, read once at start-up and never changed while it runs.
///
/// Built by ``ConfigLoader`` from a file, or ``builtInDefault`` when there is no file, so that the sidecar works
/// out of the box. A config is all or nothing: a bad file is an error, never a partly applied config.
package struct SidecarConfig: Sendable {
  /// Every profile, by name.
  ///
  /// A file that lists profiles but not `default` has no `default` profile: it is not added behind the user's
  /// back, because a silent local-provider profile next to the ones they configured would accept logins they
  /// never meant to allow. Hosts then pass `profile` on every request.
  package let profiles: [String: ProfileConfig]
  /// Where the profiles came from, for `status` and diagnostics.
  package let source: ConfigSource
  /// Where the store key is kept (`storage` in the file).
  package let storage: StorageConfig

  /// - Important: `profiles` must not be empty and must not repeat a name; the loader guarantees both for files.
  package init(profiles: [ProfileConfig], source: ConfigSource, storage: StorageConfig = StorageConfig()) {
    precondition(!profiles.isEmpty, "a config has at least one profile")
    var byName: [String: ProfileConfig] = [:]
    for profile in profiles {
      precondition(byName.updateValue(profile, forKey: profile.name) == nil, "profile names are unique")
    }
    self.profiles = byName
    self.source = source
    self.storage = storage
  }

  /// The profile called `name`, or nil when the config has none by that name.
  package func profile(_ name: String) -> ProfileConfig? { profiles[name] }

  /// Profile names in a stable order, for `status` and messages.
  package var profileNames: [String] { profiles.keys.sorted() }

  /// No config file: profile `default` on the local provider with every default.
  package static let builtInDefault = SidecarConfig(
    profiles: [ProfileConfig(name: ProfileName.default.rawValue)], source: .builtInDefault)
}
