/// Why the config cannot be used. The sidecar prints it and exits 78 (`EX_CONFIG`) before serving anything.
///
/// The message names the file and the JSON path of the offending setting but never repeats a value from the
/// file: later providers put client secrets and tokens in their settings, and this text goes to terminals and logs.
package struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
  package enum Kind: Sendable, Equatable {
    /// A file named by `--config` or `AUTH_SIDECAR_CONFIG` does not exist.
    case fileNotFound
    /// The file exists but cannot be read: permissions, not a regular file, an I/O error.
    case unreadable
    /// The file is larger than ``ConfigLoader/maxFileBytes``.
    case tooLarge
    /// Not strict UTF-8 JSON: syntax, invalid UTF-8, a byte order mark, nesting too deep, an empty file.
    case invalidJSON
    /// Well-formed JSON that breaks the format: a wrong type, a number out of range, an unknown, missing or
    /// repeated key, a bad profile or provider name, or validation settings that contradict each other.
    case invalidSetting
  }

  package let kind: Kind
  /// The file as it was named (or "built-in defaults").
  package let file: String
  /// Where in the document, like `profiles.work.local.accessTokenTTLSeconds`; empty when about the whole file.
  package let jsonPath: String
  /// What is wrong and what is allowed, without the offending value.
  package let message: String

  package init(kind: Kind, file: String, jsonPath: String = "", message: String) {
    self.kind = kind
    self.file = file
    self.jsonPath = jsonPath
    self.message = message
  }

  /// `FILE: PATH: MESSAGE`, or `FILE: MESSAGE` for the whole file.
  package var description: String {
    jsonPath.isEmpty ? "\(file): \(message)" : "\(file): \(jsonPath): \(message)"
  }
}
