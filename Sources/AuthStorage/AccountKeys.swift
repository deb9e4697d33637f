/// The canonical identifier columns of `accounts` (`username_key`, `email_key`; see `IdentifierKey`).
enum AccountKeys {
  /// Computes the keys of accounts created before they existed, oldest account first.
  ///
  /// Two old accounts may already share a key (`josé` stored twice, precomposed and decomposed): the older one
  /// keeps the key, the younger keeps NULL there and stays reachable by its exact spelling (see
  /// `ReadTransaction.account(username:)`); neither is deleted or renamed behind its owner's back.
  static func fill(_ connection: SQLiteConnection) throws {
    let accounts = try connection.rows("SELECT id, username, email FROM accounts ORDER BY created_at, id") {
      (id: $0.text(0), username: $0.text(1), email: $0.optionalText(2))
    }
    for account in accounts {
      // OR IGNORE: a key an older account holds is left NULL here instead of failing the migration.
      try connection.run(
        "UPDATE OR IGNORE accounts SET username_key = ? WHERE id = ?",
        [.text(IdentifierKey.of(account.username)), .text(account.id)])
      guard let email = account.email else { continue }
      try connection.run(
        "UPDATE OR IGNORE accounts SET email_key = ? WHERE id = ?", [.text(IdentifierKey.of(email)), .text(account.id)])
    }
  }

  /// The key columns' values for `account`, in the order `username_key, email_key`.
  static func values(_ account: AccountRecord) -> [SQLValue] {
    [.text(IdentifierKey.of(account.username)), .text(account.email.map(IdentifierKey.of))]
  }

  /// A clash on a key column is a clash on the identifier it keys: hosts are told `username` or `email`.
  static func renamingKeyColumn(_ error: StorageError) -> StorageError {
    guard error.code == .alreadyExists, let field = error.field, field.hasSuffix("_key") else { return error }
    let identifier = String(field.dropLast(4))
    return StorageError(.alreadyExists, "\(identifier) already exists", field: identifier)
  }
}
