/// Whose message it is: a field, or the `account` field as the kind it was classified as.
///
/// An account's messages always name the field "Account" / "账号" (the label of a login form's single
/// field), while their limits and wording follow the kind's rules: an email account is too long at 254
/// characters, a username account at the username maximum.
enum MessageSubject: Int, Sendable, CaseIterable {
  case username
  case email
  case phone
  case password
  case accountAsUsername
  case accountAsEmail
  case accountAsPhone
  case code

  init(field: FieldName) {
    switch field {
    case .account: self = .accountAsUsername
    case .username: self = .username
    case .email: self = .email
    case .phone: self = .phone
    case .password: self = .password
    case .code: self = .code
    }
  }

  /// An account's subject follows its kind; every other field's is its own.
  init(field: FieldName, kind: AccountKind?) {
    self = kind.map(Self.init(account:)) ?? Self(field: field)
  }

  init(account kind: AccountKind) {
    switch kind {
    case .username: self = .accountAsUsername
    case .email: self = .accountAsEmail
    case .phone: self = .accountAsPhone
    }
  }

  /// The kind of value the rules checked, which picks the wording of format messages.
  var ruleKind: AccountKind? {
    switch self {
    case .username, .accountAsUsername: .username
    case .email, .accountAsEmail: .email
    case .phone, .accountAsPhone: .phone
    case .password, .code: nil
    }
  }

  var isAccount: Bool {
    switch self {
    case .accountAsUsername, .accountAsEmail, .accountAsPhone: true
    case .username, .email, .phone, .password, .code: false
    }
  }
}
