import AuthValidation

/// The params keys `validate` reads: the form fields, then its own and every method's options.
enum ParamKey: Int, CaseIterable {
  case account, username, email, phone, password, code
  case purpose, profile, locale

  /// The key a plain (unescaped) member name spells, if it is one of these.
  init?(_ name: ScannedString, in scanner: ByteScanner) {
    // By length first: at most three comparisons, and no array of candidates on the hot path.
    let found: ParamKey?
    switch name.range.count {
    case 4: found = Self.match(name, scanner, .code)
    case 5: found = Self.match(name, scanner, .email) ?? Self.match(name, scanner, .phone)
    case 6: found = Self.match(name, scanner, .locale)
    case 7:
      found =
        Self.match(name, scanner, .account) ?? Self.match(name, scanner, .purpose)
        ?? Self.match(name, scanner, .profile)
    case 8: found = Self.match(name, scanner, .username) ?? Self.match(name, scanner, .password)
    default: found = nil
    }
    guard let found else { return nil }
    self = found
  }

  private static func match(_ name: ScannedString, _ scanner: ByteScanner, _ key: ParamKey) -> ParamKey? {
    scanner.matches(name, key.name) ? key : nil
  }

  /// The form field this key is, if it is one.
  var field: FieldName? {
    switch self {
    case .account: .account
    case .username: .username
    case .email: .email
    case .phone: .phone
    case .password: .password
    case .code: .code
    case .purpose, .profile, .locale: nil
    }
  }

  /// The key as written; the same names as `FieldName`'s and `Params`' (the differential test checks every one).
  var name: StaticString {
    switch self {
    case .account: "account"
    case .username: "username"
    case .email: "email"
    case .phone: "phone"
    case .password: "password"
    case .code: "code"
    case .purpose: "purpose"
    case .profile: "profile"
    case .locale: "locale"
    }
  }

  var text: String { name.description }
}

/// One optional value per `ParamKey`, held inline (an array would cost an allocation on every request).
struct ParamSlots<Value> {
  private var slots: (Value?, Value?, Value?, Value?, Value?, Value?, Value?, Value?, Value?)

  init() { slots = (nil, nil, nil, nil, nil, nil, nil, nil, nil) }

  subscript(key: ParamKey) -> Value? {
    get {
      switch key {
      case .account: slots.0
      case .username: slots.1
      case .email: slots.2
      case .phone: slots.3
      case .password: slots.4
      case .code: slots.5
      case .purpose: slots.6
      case .profile: slots.7
      case .locale: slots.8
      }
    }
    set {
      switch key {
      case .account: slots.0 = newValue
      case .username: slots.1 = newValue
      case .email: slots.2 = newValue
      case .phone: slots.3 = newValue
      case .password: slots.4 = newValue
      case .code: slots.5 = newValue
      case .purpose: slots.6 = newValue
      case .profile: slots.7 = newValue
      case .locale: slots.8 = newValue
      }
    }
  }
}
