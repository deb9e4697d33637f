import Testing

@testable import AuthValidation

@Suite struct MessageCatalogTests {
  static let subjects = MessageSubject.allCases

  @Test(arguments: MessageLocale.allCases, FieldName.allCases)
  func everyFieldHasAMessageForEveryCode(locale: MessageLocale, field: FieldName) {
    for code in ValidationCode.allCases {
      let message = MessageCatalog.standard.message(code, for: MessageSubject(field: field), locale: locale)
      #expect(!message.isEmpty, "\(field) \(code)")
      #expect(message.hasSuffix(locale == .en ? "." : "。"), "\(message)")
    }
  }

  @Test(arguments: MessageLocale.allCases, AccountKind.allCases)
  func everyAccountKindHasAMessageForEveryCode(locale: MessageLocale, kind: AccountKind) {
    let name = locale == .en ? "Account" : "账号"
    for code in ValidationCode.allCases {
      let message = MessageCatalog.standard.message(code, for: MessageSubject(account: kind), locale: locale)
      #expect(message.contains(name), "\(message)")
    }
  }

  @Test(arguments: MessageSubject.allCases)
  func eachLocaleHasItsOwnText(subject: MessageSubject) {
    for code in ValidationCode.allCases {
      let english = MessageCatalog.standard.message(code, for: subject, locale: .en)
      let chinese = MessageCatalog.standard.message(code, for: subject, locale: .zhHans)
      #expect(english != chinese)
      #expect(english.unicodeScalars.allSatisfy { $0.isASCII }, "\(english)")
      #expect(chinese.unicodeScalars.contains { $0.properties.isIdeographic }, "\(chinese)")
    }
  }

  @Test(arguments: MessageLocale.allCases)
  func messagesWithinASubjectAreDistinct(locale: MessageLocale) {
    for subject in MessageSubject.allCases {
      let messages = ValidationCode.allCases.map { MessageCatalog.standard.message($0, for: subject, locale: locale) }
      #expect(Set(messages).count == messages.count, "\(subject)")
    }
  }

  @Test func englishMessagesForTheDefaultPolicy() {
    let expected: [(MessageSubject, ValidationCode, String)] = [
      (.password, .required, "Password is required."),
      (.password, .tooShort, "Password must be at least 8 characters."),
      (.password, .tooLong, "Password must be at most 128 characters."),
      (.password, .invalidCharacters, "Password cannot contain control characters."),
      (.password, .tooCommon, "Password is too common. Choose one that is harder to guess."),
      (.password, .missingLetter, "Password must contain at least one letter."),
      (.password, .missingDigit, "Password must contain at least one digit."),
      (.username, .tooShort, "Username must be at least 3 characters."),
      (.username, .tooLong, "Username must be at most 30 characters."),
      (
        .username, .invalidCharacters,
        "Username can only contain English letters, digits, underscores (_) and hyphens (-)."
      ),
      (.email, .tooLong, "Email address must be at most 254 characters."),
      (.email, .invalidFormat, "Email address is not valid."),
      (.phone, .invalidFormat, "Phone number is not valid."),
      (.accountAsUsername, .required, "Account is required."),
      (.accountAsEmail, .invalidFormat, "Account is not a valid email address."),
      (.accountAsPhone, .invalidFormat, "Account is not a valid phone number."),
    ]
    for (subject, code, message) in expected {
      #expect(MessageCatalog.standard.message(code, for: subject, locale: .en) == message)
    }
  }

  @Test func chineseMessagesForTheDefaultPolicy() {
    let expected: [(MessageSubject, ValidationCode, String)] = [
      (.password, .required, "请输入密码。"),
      (.password, .tooShort, "密码至少需要 8 个字符。"),
      (.password, .tooLong, "密码不能超过 128 个字符。"),
      (.password, .invalidCharacters, "密码不能包含控制字符。"),
      (.password, .tooCommon, "密码过于常见，请换一个更难猜到的密码。"),
      (.password, .missingLetter, "密码必须包含至少一个字母。"),
      (.password, .missingDigit, "密码必须包含至少一个数字。"),
      (.username, .tooShort, "用户名至少需要 3 个字符。"),
      (.username, .tooLong, "用户名不能超过 30 个字符。"),
      (.username, .invalidCharacters, "用户名只能包含英文字母、数字、下划线 (_) 和连字符 (-)。"),
      (.email, .tooLong, "邮箱地址不能超过 254 个字符。"),
      (.email, .invalidFormat, "邮箱地址格式不正确。"),
      (.phone, .invalidFormat, "手机号格式不正确。"),
      (.accountAsUsername, .required, "请输入账号。"),
      (.accountAsEmail, .invalidFormat, "账号不是有效的邮箱地址。"),
      (.accountAsPhone, .invalidFormat, "账号不是有效的手机号。"),
    ]
    for (subject, code, message) in expected {
      #expect(MessageCatalog.standard.message(code, for: subject, locale: .zhHans) == message)
    }
  }

  @Test func limitsComeFromThePolicy() throws {
    let policy = try Fixtures.policy(preset: .classic, passwordMin: 1, passwordMax: 40, usernameMin: 4, usernameMax: 16)
    let catalog = MessageCatalog.forPolicy(policy)
    #expect(catalog.message(.tooShort, for: .password, locale: .en) == "Password must be at least 1 character.")
    #expect(catalog.message(.tooLong, for: .password, locale: .en) == "Password must be at most 40 characters.")
    #expect(
      catalog.message(.tooShort, for: .accountAsUsername, locale: .en) == "Account must be at least 4 characters.")
    #expect(catalog.message(.tooLong, for: .username, locale: .zhHans) == "用户名不能超过 16 个字符。")
    #expect(catalog.message(.tooLong, for: .accountAsEmail, locale: .en) == "Account must be at most 254 characters.")
  }

  @Test func classicPresetQuotesItsOwnMaximum() {
    let catalog = MessageCatalog.forPolicy(.classic)
    #expect(catalog.message(.tooLong, for: .password, locale: .en) == "Password must be at most 64 characters.")
    #expect(catalog.message(.tooLong, for: .password, locale: .zhHans) == "密码不能超过 64 个字符。")
  }

  @Test func defaultLimitsReuseTheSharedCatalog() throws {
    let sameNumbers = try Fixtures.policy(passwordMin: 8, passwordMax: 128)
    #expect(MessageCatalog.forPolicy(sameNumbers).limits == MessageCatalog.standard.limits)
    #expect(MessageCatalog.forPolicy(.classic).limits != MessageCatalog.standard.limits)
  }
}
