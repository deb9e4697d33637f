/// The codes a rule reports, as a bit set so rules allocate nothing.
///
/// Bits follow the declaration order of ``ValidationCode``, so iterating yields the codes in rule order.
package struct ValidationCodeSet: Sendable, Equatable {
  private(set) var bits: UInt8 = 0

  static let required = ValidationCodeSet(.required)

  init() {}

  init(_ code: ValidationCode) {
    insert(code)
  }

  package var isEmpty: Bool { bits == 0 }

  package func contains(_ code: ValidationCode) -> Bool {
    bits & Self.mask(code) != 0
  }

  mutating func insert(_ code: ValidationCode) {
    bits |= Self.mask(code)
  }

  /// Inserts `code` when `failed` is true; reads like the rule tables of the spec.
  mutating func insert(_ code: ValidationCode, if failed: Bool) {
    if failed { insert(code) }
  }

  /// The codes in rule order.
  var codes: [ValidationCode] {
    Self.ruleOrder.filter(contains)
  }

  /// Each code in rule order, without building an array (the request fast path).
  package func forEach(_ body: (ValidationCode) -> Void) {
    for code in Self.ruleOrder where contains(code) { body(code) }
  }

  /// `allCases` builds a new array on every call; this one is built once.
  private static let ruleOrder = ValidationCode.allCases

  private static func mask(_ code: ValidationCode) -> UInt8 {
    switch code {
    case .required: 1 << 0
    case .tooShort: 1 << 1
    case .tooLong: 1 << 2
    case .invalidCharacters: 1 << 3
    case .invalidFormat: 1 << 4
    case .missingLetter: 1 << 5
    case .missingDigit: 1 << 6
    case .tooCommon: 1 << 7
    }
  }
}
