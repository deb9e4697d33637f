import AuthCrypto

/// Named secrets sealed at rest, e.g. the `local` provider's JWT signing key.
extension ReadTransaction {
  /// - Throws: `StorageError.corrupt` when the value does not decrypt (e.g. the key changed).
  package func secret(named name: String) throws -> SecretBytes? {
    guard let sealed = try db.row("SELECT value FROM secrets WHERE name = ?", [.text(name)], { $0.blob(0) }) else {
      return nil
    }
    return try sealer.openSecret(sealed, "secrets", "value", row: name)
  }
}

extension WriteTransaction {
  /// Creates or replaces the secret called `name`.
  package func putSecret(_ value: SecretBytes, named name: String) throws {
    let sealed = try sealer.seal(value, "secrets", "value", row: name)
    try db.run("INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", [.text(name), .blob(sealed)])
  }

  /// - Returns: whether it existed.
  @discardableResult
  package func deleteSecret(named name: String) throws -> Bool {
    try db.run("DELETE FROM secrets WHERE name = ?", [.text(name)]) > 0
  }
}
