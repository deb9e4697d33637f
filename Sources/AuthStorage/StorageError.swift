/// The one error AuthStorage throws.
///
/// `message` is for logs and developers: it may name a path or a table, but never holds a secret, a token, a
/// password hash or a bound SQL argument (SQLite's own messages name columns, never values).
package struct StorageError: Error, Sendable, CustomStringConvertible {
  package enum Code: Sendable, Equatable {
    /// The store cannot be used right now: can't open or create, read-only, disk full, I/O error, lock timeout,
    /// or a schema newer than this build.
    case unavailable
    /// The database file is damaged (it has been moved aside; see `quarantinedPath`), or a sealed value failed
    /// to decrypt or authenticate (nothing is moved: usually the key changed).
    case corrupt
    /// A unique constraint refused the write; `field` names the column.
    case alreadyExists
    /// The row the operation needs does not exist.
    case notFound
    /// The configuration is unusable: a malformed `AUTH_SIDECAR_KEY`, no way to locate the state directory.
    case invalidConfiguration
    /// A bug on our side (bad SQL, misuse of the SQLite API).
    case internalError
  }

  package let code: Code
  package let message: String
  /// For `.alreadyExists`: the column that clashed, e.g. "username", "email" or "phone".
  package let field: String?
  /// For `.corrupt` after a damaged database was moved aside: where it now lives.
  package let quarantinedPath: String?
  /// A stable word for hosts when the code alone does not say what to fix, e.g. "wrong_key".
  package let reason: String?

  package init(
    _ code: Code, _ message: String, field: String? = nil, quarantinedPath: String? = nil, reason: String? = nil
  ) {
    self.code = code
    self.message = message
    self.field = field
    self.quarantinedPath = quarantinedPath
    self.reason = reason
  }

  package var description: String { "StorageError.\(code): \(message)" }

  static func unavailable(_ message: String) -> StorageError { StorageError(.unavailable, message) }
  static func corrupt(_ message: String) -> StorageError { StorageError(.corrupt, message) }
  static func invalidConfiguration(_ message: String) -> StorageError { StorageError(.invalidConfiguration, message) }
}
