import Synchronization

/// Every message a validator can report, rendered once per policy and locale so that a failing field costs a table
/// read rather than string formatting on each request.
///
/// A locale's table is rendered the first time one of its messages is needed, not when the validator is built: a
/// host that never sends a failing field, or never asks for `zh-Hans`, never pays for rendering it, and start-up
/// pays for neither.
struct MessageCatalog: Sendable {
  /// The limits of the default policy, which most profiles keep.
  static let standardLimits = MessageLimits(policy: .standard)
  /// The catalog of the default limits, shared by every validator whose policy quotes the same numbers.
  static let standard = MessageCatalog(limits: standardLimits)

  private static let codes = ValidationCode.allCases
  private static let subjectCount = MessageSubject.allCases.count

  let limits: MessageLimits
  private let tables: LocaleTables

  init(limits: MessageLimits) {
    self.limits = limits
    tables = LocaleTables()
  }

  /// The catalog for `policy`, reusing ``standard`` when the numbers are the same.
  static func forPolicy(_ policy: ValidationPolicy) -> MessageCatalog {
    let limits = MessageLimits(policy: policy)
    return limits == standardLimits ? standard : MessageCatalog(limits: limits)
  }

  func message(_ code: ValidationCode, for subject: MessageSubject, locale: MessageLocale) -> String {
    tables.message(at: Self.index(code, subject), locale: locale) { Self.renderTable(limits: limits, locale: locale) }
  }

  /// One locale's messages, indexed by subject, then code (``index(_:_:)``).
  private static func renderTable(limits: MessageLimits, locale: MessageLocale) -> [String] {
    var table = [String](repeating: "", count: subjectCount * codes.count)
    for subject in MessageSubject.allCases {
      for code in codes {
        table[index(code, subject)] = render(code, for: subject, limits: limits, locale: locale)
      }
    }
    return table
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

  private static func index(_ code: ValidationCode, _ subject: MessageSubject) -> Int {
    subject.rawValue * codes.count + codeIndex(code)
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

/// The rendered table of each locale, filled on first use; shared by the copies of one catalog.
private final class LocaleTables: Sendable {
  private let english = Mutex<[String]?>(nil)
  private let chinese = Mutex<[String]?>(nil)

  func message(at index: Int, locale: MessageLocale, render: () -> [String]) -> String {
    switch locale {
    case .en: Self.message(at: index, in: english, render: render)
    case .zhHans: Self.message(at: index, in: chinese, render: render)
    }
  }

  private static func message(at index: Int, in table: borrowing Mutex<[String]?>, render: () -> [String]) -> String {
    table.withLock { table in
      if let table { return table[index] }
      let rendered = render()
      table = rendered
      return rendered[index]
    }
  }
}
