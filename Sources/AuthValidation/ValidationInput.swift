/// The fields of a `validate` request; `nil` means not sent, which differs from sent but empty.
package struct ValidationInput: Sendable, Equatable {
  package var account: String?
  package var username: String?
  package var email: String?
  package var phone: String?
  package var password: String?
  package var code: String?

  package init(
    account: String? = nil,
    username: String? = nil,
    email: String? = nil,
    phone: String? = nil,
    password: String? = nil,
    code: String? = nil
  ) {
    self.account = account
    self.username = username
    self.email = email
    self.phone = phone
    self.password = password
    self.code = code
  }

  /// True when no field was sent, which the request layer answers with invalid params.
  package var isEmpty: Bool {
    account == nil && username == nil && email == nil && phone == nil && password == nil && code == nil
  }

  /// Access by name, for a request decoder that maps JSON keys through `FieldName(rawValue:)`.
  package subscript(field: FieldName) -> String? {
    get {
      switch field {
      case .account: account
      case .username: username
      case .email: email
      case .phone: phone
      case .password: password
      case .code: code
      }
    }
    set {
      switch field {
      case .account: account = newValue
      case .username: username = newValue
      case .email: email = newValue
      case .phone: phone = newValue
      case .password: password = newValue
      case .code: code = newValue
      }
    }
  }
}
