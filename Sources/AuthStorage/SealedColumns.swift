/// Every column whose values are sealed (see `Sealer`), with the column that names each row in the associated
/// data: what `Rekey` re-seals. `SealedColumnsTests` checks it against the schema's BLOB columns, so a sealed
/// column added by a migration cannot be left under the old key.
enum SealedColumns {
  struct Column: Sendable {
    let table: String
    let column: String
    let rowKey: String
  }

  static let all: [Column] = [
    Column(table: "profiles", column: "last_account", rowKey: "profile"),
    Column(table: "sessions", column: "user_json", rowKey: "profile"),
    Column(table: "sessions", column: "access_token", rowKey: "profile"),
    Column(table: "sessions", column: "refresh_token", rowKey: "profile"),
    Column(table: "sessions", column: "id_token", rowKey: "profile"),
    Column(table: "sessions", column: "provider_state", rowKey: "profile"),
    Column(table: "secrets", column: "value", rowKey: "name"),
    Column(table: "authenticators", column: "secret", rowKey: "account_id"),
  ]

  /// BLOB columns that hold hashes or the key check, not values sealed per row.
  static let notSealed: Set<String> = [
    "login_throttle.identifier_hash", "refresh_tokens.token_hash", "codes.slot", "codes.code_hash",
    "code_sends.slot", "challenges.challenge_hash", "recovery_codes.code_hash", "key_check.check_value",
  ]

  /// Re-seals every value from `old` to `new`, inside the caller's transaction.
  /// - Throws: `StorageError.corrupt` when a value does not open under `old`; SQLite failures.
  static func reseal(_ connection: SQLiteConnection, from old: Sealer, to new: Sealer) throws -> Int {
    var count = 0
    for column in all {
      let sealed = try connection.rows(
        "SELECT \(column.rowKey), \(column.column) FROM \(column.table) WHERE \(column.column) IS NOT NULL"
      ) { ($0.text(0), $0.blob(1)) }
      for (row, value) in sealed {
        var plaintext = try old.open(value, column.table, column.column, row: row)
        defer { plaintext.wipe() }
        let resealed = try new.seal(plaintext, column.table, column.column, row: row)
        try connection.run(
          "UPDATE \(column.table) SET \(column.column) = ? WHERE \(column.rowKey) = ?", [.blob(resealed), .text(row)])
        count += 1
      }
    }
    return count
  }
}
