import CSQLite

/// A value bound to a `?` placeholder. Values go only through bindings, never into SQL text or error messages.
enum SQLValue {
  case integer(Int64)
  case text(String)
  case blob([UInt8])
  case null

  static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
  static func blob(_ value: [UInt8]?) -> SQLValue { value.map(SQLValue.blob) ?? .null }
  static func integer(_ value: Int64?) -> SQLValue { value.map(SQLValue.integer) ?? .null }
  static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
}

/// A prepared statement owned by one `SQLiteConnection`'s cache.
final class Statement {
  private let handle: OpaquePointer
  private unowned let connection: SQLiteConnection

  init(_ handle: OpaquePointer, connection: SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  func reset(binding arguments: [SQLValue]) throws {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    for (offset, value) in arguments.enumerated() {
      let index = Int32(offset + 1)
      let rc: Int32
      switch value {
      case .integer(let number):
        rc = sqlite3_bind_int64(handle, index, number)
      case .text(let string):
        var string = string
        rc = string.withUTF8 { utf8 in
          utf8.withMemoryRebound(to: CChar.self) {
            // A nil pointer would bind NULL, so the empty string gets a real (empty) C string.
            guard let base = $0.baseAddress else { return auth_sqlite3_bind_text_transient(handle, index, "", 0) }
            return auth_sqlite3_bind_text_transient(handle, index, base, Int32($0.count))
          }
        }
      case .blob(let bytes):
        // A nil pointer would bind NULL, so an empty blob needs zeroblob(0).
        rc =
          bytes.isEmpty
          ? sqlite3_bind_zeroblob(handle, index, 0)
          : bytes.withUnsafeBytes { auth_sqlite3_bind_blob_transient(handle, index, $0.baseAddress, Int32($0.count)) }
      case .null:
        rc = sqlite3_bind_null(handle, index)
      }
      guard rc == SQLITE_OK else { throw connection.fail(rc, sqlite3_errmsg(sqlite3_db_handle(handle))) }
    }
  }

  /// True while there is a row to read.
  func step() throws -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.fail(rc, sqlite3_errmsg(sqlite3_db_handle(handle)))
    }
  }

  /// Releases the read snapshot and drops bound values (they may be ciphertext or hashes) right away.
  func finish() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  func text(_ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, column) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func blob(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }
}

/// The current row of a stepping statement, read by column index.
struct Row {
  let statement: Statement

  func integer(_ column: Int32) -> Int64 { statement.integer(column) }
  func text(_ column: Int32) -> String { statement.text(column) }
  func blob(_ column: Int32) -> [UInt8] { statement.blob(column) }
  func bool(_ column: Int32) -> Bool { statement.integer(column) != 0 }
  func optionalInteger(_ column: Int32) -> Int64? { statement.isNull(column) ? nil : statement.integer(column) }
  func optionalText(_ column: Int32) -> String? { statement.isNull(column) ? nil : statement.text(column) }
  func optionalBlob(_ column: Int32) -> [UInt8]? { statement.isNull(column) ? nil : statement.blob(column) }
}
