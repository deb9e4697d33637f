/// The account a user typed into a login form, already validated, with what the host sent along with it.
package struct LoginAccount: Sendable, Equatable {
  package enum Kind: String, Sendable { case username, email, phone }

  package var kind: Kind
  /// The normalized text (trimmed; an email's domain lower-cased; a phone in E.164): what local accounts are
  /// looked up by.
  package var text: String
  /// Exactly what the user typed, surrounding white space trimmed. Servers store identities as their users typed
  /// them, so this — not `text` — is what a remote login sends as `{account}` and `{username}`.
  package var typed: String
  /// Values the host supplied with the login (a device id, an app version), already checked against the names
  /// the profile declares; a `rest` login body uses them as `{context.name}`.
  package var context: [String: String]

  /// - Parameter typed: what the user typed, trimmed; `text` when nil.
  package init(kind: Kind, text: String, typed: String? = nil, context: [String: String] = [:]) {
    self.kind = kind
    self.text = text
    self.typed = typed ?? text
    self.context = context
  }
}

/// A new account, already validated with the registration policy; the display name neutralized (`DisplayName`)
/// before anything stores or sends it.
package struct Registration: Sendable {
  package var username: String
  package var email: String?
  package var phone: String?
  package private(set) var displayName: String?

  package init(username: String, email: String? = nil, phone: String? = nil, displayName: String? = nil) {
    self.username = username
    self.email = email
    self.phone = phone
    self.displayName = DisplayName.neutralized(displayName)
  }
}
