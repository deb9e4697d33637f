/// The `local` provider's accounts.
extension ReadTransaction {
  private static let accountColumns = """
    SELECT id, username, email, phone, display_name, password_hash, disabled, created_at
    FROM accounts
    """

  package func account(id: String) throws -> AccountRecord? {
    try db.row(Self.accountColumns + " WHERE id = ?", [.text(id)], Self.account)
  }

  /// Compared by canonical form (`IdentifierKey`: NFC, case-folded); an account whose key an older one took before
  /// keys existed (see `AccountKeys.fill`) is found by its exact spelling, which then wins over the key's owner.
  package func account(username: String) throws -> AccountRecord? {
    try db.row(
      Self.accountColumns
        + " WHERE username_key = ? OR (username_key IS NULL AND username = ?) ORDER BY username_key IS NOT NULL",
      [.text(IdentifierKey.of(username)), .text(username)], Self.account)
  }

  /// Compared like `account(username:)`.
  package func account(email: String) throws -> AccountRecord? {
    try db.row(
      Self.accountColumns + " WHERE email_key = ? OR (email_key IS NULL AND email = ?) ORDER BY email_key IS NOT NULL",
      [.text(IdentifierKey.of(email)), .text(email)], Self.account)
  }

  /// Exact: phones are stored normalized to E.164.
  package func account(phone: String) throws -> AccountRecord? {
    try db.row(Self.accountColumns + " WHERE phone = ?", [.text(phone)], Self.account)
  }

  /// Every account, oldest first.
  package func accounts() throws -> [AccountRecord] {
    try db.rows(Self.accountColumns + " ORDER BY created_at, username", [], Self.account)
  }

  private static func account(_ row: Row) -> AccountRecord {
    AccountRecord(
      id: row.text(0), username: row.text(1), email: row.optionalText(2), phone: row.optionalText(3),
      displayName: row.optionalText(4), passwordHash: row.text(5), disabled: row.bool(6),
      createdAt: row.integer(7))
  }
}

extension WriteTransaction {
  /// - Throws: `StorageError.alreadyExists` with `field` "username", "email", "phone" or "id" when taken.
  package func insertAccount(_ account: AccountRecord) throws {
    do {
      try db.run(
        """
        INSERT INTO accounts (username_key, email_key, username, email, phone, display_name, password_hash, disabled,
          created_at, id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, AccountKeys.values(account) + Self.columns(account))
    } catch let error as StorageError {
      throw AccountKeys.renamingKeyColumn(error)
    }
  }

  /// Replaces every column of the account with `account.id`.
  /// - Throws: `StorageError.notFound` when there is no such account; `.alreadyExists` (with `field`) when the
  ///   new username, email or phone belongs to another account.
  package func updateAccount(_ account: AccountRecord) throws {
    let changed: Int
    do {
      changed = try db.run(
        """
        UPDATE accounts SET username_key = ?, email_key = ?, username = ?, email = ?, phone = ?, display_name = ?,
          password_hash = ?, disabled = ?, created_at = ?
        WHERE id = ?
        """, AccountKeys.values(account) + Self.columns(account))
    } catch let error as StorageError {
      throw AccountKeys.renamingKeyColumn(error)
    }
    guard changed == 1 else { throw StorageError(.notFound, "no account with id \(account.id)") }
  }

  /// Deletes the account and (by cascade) its refresh tokens.
  /// - Returns: whether it existed.
  @discardableResult
  package func deleteAccount(id: String) throws -> Bool {
    try db.run("DELETE FROM accounts WHERE id = ?", [.text(id)]) > 0
  }

  private static func columns(_ account: AccountRecord) -> [SQLValue] {
    [
      .text(account.username), .text(account.email), .text(account.phone), .text(account.displayName),
      .text(account.passwordHash), .bool(account.disabled), .integer(account.createdAt), .text(account.id),
    ]
  }
}
