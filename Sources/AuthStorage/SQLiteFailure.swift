import CSQLite

/// Classifies a SQLite result code into the storage error contract.
struct SQLiteFailure {
  let code: Int32
  let detail: String
  let path: String

  var primary: Int32 { code & 0xff }

  // Extended codes are function-like macros in sqlite3.h, which Swift does not import.
  static let constraintForeignKey = SQLITE_CONSTRAINT | (3 << 8)
  static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
  static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)
  /// The file itself is damaged: move it aside rather than keep failing on it.
  var isDamage: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }

  var storageError: StorageError {
    let what = "\(String(cString: sqlite3_errstr(code))) (SQLite \(code)) in \(path)"
    switch primary {
    case SQLITE_CORRUPT, SQLITE_NOTADB:
      return .corrupt("the store is damaged: \(what)")
    case SQLITE_FULL:
      return .unavailable("the disk is full: \(what)")
    case SQLITE_BUSY:
      return .unavailable("lock timeout: another process held the store for over 10 s: \(what)")
    case SQLITE_READONLY:
      return .unavailable("the store is read-only: \(what)")
    case SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_NOMEM, SQLITE_PROTOCOL, SQLITE_NOLFS,
      SQLITE_AUTH:
      return .unavailable("cannot use the store: \(what)")
    case SQLITE_CONSTRAINT:
      return constraintError(what)
    default:
      return StorageError(.internalError, "\(detail.isEmpty ? "SQLite error" : detail): \(what)")
    }
  }

  /// SQLite's constraint text is "UNIQUE constraint failed: accounts.username": a column name, never the value.
  private func constraintError(_ what: String) -> StorageError {
    switch code {
    case Self.constraintUnique, Self.constraintPrimaryKey:
      let field = firstColumn
      return StorageError(.alreadyExists, "\(field ?? "a row") already exists (\(detail))", field: field)
    case Self.constraintForeignKey:
      return StorageError(.notFound, "a referenced row does not exist: \(what)")
    default:
      return StorageError(.internalError, "\(detail): \(what)")
    }
  }

  /// "accounts.username" out of "UNIQUE constraint failed: accounts.username, accounts.x" → "username".
  private var firstColumn: String? {
    guard let colon = detail.lastIndex(of: ":") else { return nil }
    let first = detail[detail.index(after: colon)...].split(separator: ",").first ?? ""
    let column = first.split(separator: ".").last.map { String($0).filter { $0 != " " } }
    return column?.isEmpty == false ? column : nil
  }
}
