/// Every message a validator can report, rendered once per policy so that a failing field costs a table
/// read rather than string formatting on each request.
struct MessageCatalog: Sendable {
  /// The catalog of the default limits, shared by every validator whose policy quotes the same numbers.
  static let standard = MessageCatalog(limits: MessageLimits(policy: .standard))

  private static let codes = ValidationCode.allCases
  private static let subjectCount = MessageSubject.allCases.count

  let limits: MessageLimits
  /// Indexed by locale, then subject, then code (``index(_:_:_:)``).
  private let table: [String]

  init(limits: MessageLimits) {
    self.limits = limits
    var table = [String](repeating: "", count: MessageLocale.allCases.count * Self.subjectCount * Self.codes.count)
    for locale in MessageLocale.allCases {
      for subject in MessageSubject.allCases {
        for code in Self.codes {
          table[Self.index(code, subject, locale)] = Self.render(code, for: subject, limits: limits, locale: locale)
        }
      }
    }
    self.table = table
  }

  /// The catalog for `policy`, reusing ``standard`` when the numbers are the same.
  static func forPolicy(_ policy: ValidationPolicy) -> MessageCatalog {
    let limits = MessageLimits(policy: policy)
    return limits == standard.limits ? standard : MessageCatalog(limits: limits)
  }

  func message(_ code: ValidationCode, for subject: MessageSubject, locale: MessageLocale) -> String {
    table[Self.index(code, subject, locale)]
  }

  static func render(
    _ code: ValidationCode,
    for subject: MessageSubject,
    limits: MessageLimits,
    locale: MessageLocale
  ) -> String {
    switch locale {
    case .en: EnglishMessages.message(code, for: subject, limits: limits)
    case .zhHans: ChineseMessages.message(code, for: subject, limits: limits)
    }
  }

  private static func index(_ code: ValidationCode, _ subject: MessageSubject, _ locale: MessageLocale) -> Int {
    let localeIndex =
      switch locale {
      case .en: 0
      case .zhHans: 1
      }
    return (localeIndex * subjectCount + subject.rawValue) * codes.count + codeIndex(code)
  }

  private static func codeIndex(_ code: ValidationCode) -> Int {
    switch code {
    case .required: 0
    case .tooShort: 1
    case .tooLong: 2
    case .invalidCharacters: 3
    case .invalidFormat: 4
    case .missingLetter: 5
    case .missingDigit: 6
    case .tooCommon: 7
    }
  }
}
