import AuthJSON

/// Finds, reads and checks the profiles config file.
///
/// The file is JSON of the form `{"profiles": {"NAME": {"provider": "local", ...}}}`, checked strictly: unknown,
/// missing or repeated keys, wrong types and out-of-range numbers are errors naming the JSON path, because a
/// misspelt setting silently left at its default is worse than a sidecar that refuses to start.
package enum ConfigLoader {
  /// Far above any real config; the cap keeps a wrong `--config` (a log, a disk image) from being slurped.
  package static let maxFileBytes = 1 << 20

  /// Resolves the path (see ``ConfigLocation/resolve(explicitPath:environment:)``), then reads and parses it.
  ///
  /// A file named by `--config` or `AUTH_SIDECAR_CONFIG` must exist. When the default location holds no file,
  /// the result is ``SidecarConfig/builtInDefault``; a file that exists there but cannot be read is an error,
  /// since falling back would quietly ignore the user's settings.
  /// - Parameter environment: the value of an environment variable, or nil when it is unset;
  ///   ``ConfigEnvironment/variable(_:)`` reads the process's own.
  /// - Throws: `ConfigError`.
  package static func load(
    explicitPath: String?, environment: (String) -> String?
  ) throws(ConfigError) -> SidecarConfig {
    guard let location = ConfigLocation.resolve(explicitPath: explicitPath, environment: environment) else {
      return .builtInDefault
    }
    guard !location.path.isEmpty else {
      throw ConfigError(kind: .fileNotFound, file: "--config", message: "the path is empty")
    }
    guard let bytes = try ConfigFile.read(location.path, limit: maxFileBytes) else {
      guard location.isExplicit else { return .builtInDefault }
      let namedBy = location.origin == .flag ? "--config" : ConfigLocation.environmentVariable
      throw ConfigError(kind: .fileNotFound, file: location.path, message: "file not found (named by \(namedBy))")
    }
    return try parse(bytes, source: .file(location.path))
  }

  /// Parses a config document.
  /// - Parameter source: where the bytes came from; it names the file in errors and becomes the config's source.
  /// - Throws: `ConfigError` of kind `tooLarge`, `invalidJSON` or `invalidSetting`.
  package static func parse(_ bytes: [UInt8], source: ConfigSource) throws(ConfigError) -> SidecarConfig {
    let file = source.description
    guard bytes.count <= maxFileBytes else { throw ConfigFile.tooLarge(file, maxFileBytes) }
    let document = try ConfigDocument.parse(bytes, file: file)
    do {
      let decoded = try ConfigDecoder.config(from: document)
      return SidecarConfig(profiles: decoded.profiles, source: source, storage: decoded.storage)
    } catch {
      throw ConfigError(kind: .invalidSetting, file: file, jsonPath: error.path.description, message: error.message)
    }
  }
}
