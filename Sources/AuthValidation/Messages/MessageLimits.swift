/// The parts of a policy that messages quote, so messages are rendered once per distinct policy.
struct MessageLimits: Sendable, Equatable {
  var passwordMinLength: Int
  var passwordMaxLength: Int
  var usernameMinLength: Int
  var usernameMaxLength: Int
  /// A custom pattern makes the default character list in the message untrue.
  var hasUsernamePattern: Bool
  var codeLength: Int

  init(policy: ValidationPolicy) {
    passwordMinLength = policy.passwordMinLength
    passwordMaxLength = policy.passwordMaxLength
    usernameMinLength = policy.usernameMinLength
    usernameMaxLength = policy.usernameMaxLength
    hasUsernamePattern = policy.compiledUsernamePattern != nil
    codeLength = policy.codeLength
  }

  /// The minimum length a subject's `too_short` quotes, if its rules have one.
  func minimum(for subject: MessageSubject) -> Int? {
    if subject == .code { return codeLength }
    return switch subject.ruleKind {
    case .username: usernameMinLength
    case nil: passwordMinLength
    case .email, .phone: nil
    }
  }

  /// The maximum length a subject's `too_long` quotes, if its rules have one.
  func maximum(for subject: MessageSubject) -> Int? {
    if subject == .code { return codeLength }
    return switch subject.ruleKind {
    case .username: usernameMaxLength
    case .email: EmailRule.maxLength
    case nil: passwordMaxLength
    case .phone: nil
    }
  }
}
