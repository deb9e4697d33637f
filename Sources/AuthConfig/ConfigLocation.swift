/// Which config file to read, and whether it has to exist.
package struct ConfigLocation: Sendable, Equatable {
  package enum Origin: Sendable, Equatable {
    /// `--config PATH`.
    case flag
    /// The `AUTH_SIDECAR_CONFIG` environment variable.
    case environment
    /// `$XDG_CONFIG_HOME/auth-sidecar/config.json`.
    case xdgConfigHome
    /// `$HOME/.config/auth-sidecar/config.json`.
    case home
  }

  package static let environmentVariable = "AUTH_SIDECAR_CONFIG"
  static let relativePath = "auth-sidecar/config.json"

  package let path: String
  package let origin: Origin

  package init(path: String, origin: Origin) {
    self.path = path
    self.origin = origin
  }

  /// A file the user named must exist; a default location is only where a file may be.
  package var isExplicit: Bool { origin == .flag || origin == .environment }

  /// The file to read: `--config` > `AUTH_SIDECAR_CONFIG` > `$XDG_CONFIG_HOME/…` > `$HOME/.config/…`.
  ///
  /// Empty variables count as unset, so `AUTH_SIDECAR_CONFIG= auth-sidecar` falls back to the defaults. Following
  /// the XDG Base Directory spec, a set `XDG_CONFIG_HOME` is the only default location (the `HOME` one is not
  /// tried after it), and a relative `XDG_CONFIG_HOME` or `HOME` is ignored, since it would make the config depend
  /// on the working directory. An empty `--config` value is kept: the caller reports it rather than guessing.
  /// - Returns: nil when neither a path nor a usable `XDG_CONFIG_HOME` or `HOME` is given.
  /// - Parameter environment: the value of a variable, or nil when it is unset; asked only for the variables the
  ///   answer depends on, in the order above.
  package static func resolve(explicitPath: String?, environment: (String) -> String?) -> ConfigLocation? {
    if let explicitPath { return ConfigLocation(path: explicitPath, origin: .flag) }
    if let path = environment(environmentVariable), !path.isEmpty {
      return ConfigLocation(path: path, origin: .environment)
    }
    if let xdgConfigHome = environment("XDG_CONFIG_HOME"), let base = absoluteDirectory(xdgConfigHome) {
      return ConfigLocation(path: base + "/" + relativePath, origin: .xdgConfigHome)
    }
    if let home = absoluteDirectory(environment("HOME")) {
      return ConfigLocation(path: home + "/.config/" + relativePath, origin: .home)
    }
    return nil
  }

  /// The directory without trailing slashes (so paths print cleanly), or nil when unset, empty or relative.
  private static func absoluteDirectory(_ value: String?) -> String? {
    guard let value, value.hasPrefix("/") else { return nil }
    var directory = Substring(value)
    while directory.hasSuffix("/") { directory.removeLast() }
    return String(directory)
  }
}
