/// Messages in English: short sentences that name the field and quote limits, never the input.
enum EnglishMessages {
  static func message(_ code: ValidationCode, for subject: MessageSubject, limits: MessageLimits) -> String {
    let name = name(of: subject)
    if subject == .code, let text = codeMessage(code, limits: limits) { return text }
    switch code {
    case .required:
      return "\(name) is required."
    case .tooShort:
      guard let minimum = limits.minimum(for: subject) else { return "\(name) is too short." }
      return "\(name) must be at least \(characters(minimum))."
    case .tooLong:
      guard let maximum = limits.maximum(for: subject) else { return "\(name) is too long." }
      return "\(name) must be at most \(characters(maximum))."
    case .invalidCharacters:
      switch subject.ruleKind {
      case .username where limits.hasUsernamePattern:
        return "\(name) is not in the allowed format."
      case .username:
        return "\(name) can only contain English letters, digits, underscores (_) and hyphens (-)."
      case nil:
        return "\(name) cannot contain control characters."
      case .email, .phone:
        return "\(name) contains characters that are not allowed."
      }
    case .invalidFormat:
      switch subject.ruleKind {
      case .email:
        return subject.isAccount ? "\(name) is not a valid email address." : "\(name) is not valid."
      case .phone:
        return subject.isAccount ? "\(name) is not a valid phone number." : "\(name) is not valid."
      case .username, nil:
        return "\(name) is not in a valid format."
      }
    case .missingLetter:
      return "\(name) must contain at least one letter."
    case .missingDigit:
      return "\(name) must contain at least one digit."
    case .tooCommon:
      return "\(name) is too common. Choose one that is harder to guess."
    }
  }

  private static func name(of subject: MessageSubject) -> String {
    switch subject {
    case .username: "Username"
    case .email: "Email address"
    case .phone: "Phone number"
    case .password: "Password"
    case .code: "Verification code"
    case .accountAsUsername, .accountAsEmail, .accountAsPhone: "Account"
    }
  }

  /// A code is exactly so many digits: "too short" and "too long" both say how many. The codes its rule never
  /// reports keep the general wording.
  private static func codeMessage(_ code: ValidationCode, limits: MessageLimits) -> String? {
    switch code {
    case .tooShort: "Verification code is too short: enter all \(limits.codeLength) digits."
    case .tooLong: "Verification code is too long: it has \(limits.codeLength) digits."
    case .invalidCharacters: "Verification code can only contain digits."
    default: nil
    }
  }

  private static func characters(_ count: Int) -> String {
    count == 1 ? "1 character" : "\(count) characters"
  }
}
