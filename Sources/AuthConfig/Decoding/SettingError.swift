/// A setting that breaks the format; ``ConfigLoader`` adds the file name and turns it into a ``ConfigError``.
struct SettingError: Error, Sendable, Equatable {
  let path: JSONPath
  /// What is allowed, never the value found: the value may be a secret.
  let message: String

  init(_ path: JSONPath, _ message: String) {
    self.path = path
    self.message = message
  }
}
