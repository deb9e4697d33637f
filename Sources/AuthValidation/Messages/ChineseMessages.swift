/// Messages in Simplified Chinese (zh-Hans), matching the English ones sentence for sentence.
///
/// Numbers keep a space on each side, as in "密码至少需要 8 个字符。", the usual style for mixed text.
enum ChineseMessages {
  static func message(_ code: ValidationCode, for subject: MessageSubject, limits: MessageLimits) -> String {
    let name = name(of: subject)
    if subject == .code, let text = codeMessage(code, limits: limits) { return text }
    switch code {
    case .required:
      return "请输入\(name)。"
    case .tooShort:
      guard let minimum = limits.minimum(for: subject) else { return "\(name)太短。" }
      return "\(name)至少需要 \(minimum) 个字符。"
    case .tooLong:
      guard let maximum = limits.maximum(for: subject) else { return "\(name)太长。" }
      return "\(name)不能超过 \(maximum) 个字符。"
    case .invalidCharacters:
      switch subject.ruleKind {
      case .username where limits.hasUsernamePattern:
        return "\(name)格式不符合要求。"
      case .username:
        return "\(name)只能包含英文字母、数字、下划线 (_) 和连字符 (-)。"
      case nil:
        return "\(name)不能包含控制字符。"
      case .email, .phone:
        return "\(name)包含不允许的字符。"
      }
    case .invalidFormat:
      switch subject.ruleKind {
      case .email:
        return subject.isAccount ? "\(name)不是有效的邮箱地址。" : "\(name)格式不正确。"
      case .phone:
        return subject.isAccount ? "\(name)不是有效的手机号。" : "\(name)格式不正确。"
      case .username, nil:
        return "\(name)格式不正确。"
      }
    case .missingLetter:
      return "\(name)必须包含至少一个字母。"
    case .missingDigit:
      return "\(name)必须包含至少一个数字。"
    case .tooCommon:
      return "\(name)过于常见，请换一个更难猜到的\(name)。"
    }
  }

  private static func codeMessage(_ code: ValidationCode, limits: MessageLimits) -> String? {
    switch code {
    case .tooShort: "验证码太短，请输入完整的 \(limits.codeLength) 位数字。"
    case .tooLong: "验证码太长，应为 \(limits.codeLength) 位数字。"
    case .invalidCharacters: "验证码只能包含数字。"
    default: nil
    }
  }

  private static func name(of subject: MessageSubject) -> String {
    switch subject {
    case .username: "用户名"
    case .email: "邮箱地址"
    case .phone: "手机号"
    case .password: "密码"
    case .code: "验证码"
    case .accountAsUsername, .accountAsEmail, .accountAsPhone: "账号"
    }
  }
}
