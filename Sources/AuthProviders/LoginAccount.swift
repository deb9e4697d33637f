/// The account a user typed into a login form, already validated and normalized.
package struct LoginAccount: Sendable, Equatable {
  package enum Kind: String, Sendable { case username, email, phone }

  package var kind: Kind
  /// The normalized text (trimmed; an email's domain lower-cased; a phone in E.164).
  package var text: String

  package init(kind: Kind, text: String) {
    self.kind = kind
    self.text = text
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
