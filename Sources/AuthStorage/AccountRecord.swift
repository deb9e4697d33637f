/// A user of the embedded `local` provider. Username and email are unique by canonical form (`IdentifierKey`:
/// NFC and Unicode case folding), phone exactly (it is stored normalized to E.164).
package struct AccountRecord: Sendable, Equatable, CustomStringConvertible {
  package var id: String
  package var username: String
  package var email: String?
  package var phone: String?
  package var displayName: String?
  /// A self-describing password hash string (scrypt or PBKDF2 with its parameters), never a password.
  package var passwordHash: String
  package var disabled: Bool
  /// Unix seconds.
  package var createdAt: Int64

  package init(
    id: String, username: String, email: String? = nil, phone: String? = nil, displayName: String? = nil,
    passwordHash: String, disabled: Bool = false, createdAt: Int64
  ) {
    self.id = id
    self.username = username
    self.email = email
    self.phone = phone
    self.displayName = displayName
    self.passwordHash = passwordHash
    self.disabled = disabled
    self.createdAt = createdAt
  }

  package var description: String { "AccountRecord(id: \(id), username: \(username), <redacted>)" }
}
