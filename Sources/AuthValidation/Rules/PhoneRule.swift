/// Phone rules: `required`, then `invalid_format` unless the number is E.164 (`+` and 8–15 digits, not
/// starting with 0) or a mainland China mobile number (`1[3-9]` and 9 digits), which becomes `+86…`.
enum PhoneRule {
  static let e164DigitCounts = 8...15
  static let chinaMobileDigitCount = 11
  static let chinaCountryCode = "+86"

  /// - Parameter phone: the input, already trimmed.
  static func check(_ phone: Substring) -> RuleOutcome {
    guard !phone.isEmpty else { return RuleOutcome(value: String(phone), codes: .required) }
    let stripped = removingSeparators(phone)
    switch shape(stripped.utf8) {
    case .e164: return RuleOutcome(value: stripped, codes: ValidationCodeSet())
    case .chinaMobile: return RuleOutcome(value: chinaCountryCode + stripped, codes: ValidationCodeSet())
    // An invalid number is still reported without its separators, so hosts see what was checked.
    case .invalid: return RuleOutcome(value: stripped, codes: ValidationCodeSet(.invalidFormat))
    }
  }

  /// What a number without separators is.
  enum Shape { case e164, chinaMobile, invalid }

  static func shape(_ stripped: some Collection<UInt8>) -> Shape {
    isE164(stripped) ? .e164 : isChinaMobile(stripped) ? .chinaMobile : .invalid
  }

  /// The formatting people type between digits: spaces, `-`, `.`, `(` and `)`.
  static func isSeparator(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"): true
    default: false
    }
  }

  static func removingSeparators(_ phone: Substring) -> String {
    let utf8 = phone.utf8
    guard utf8.contains(where: isSeparator) else { return String(phone) }
    // Separators are single ASCII bytes, so dropping them leaves valid UTF-8 and fits the capacity.
    return String(unsafeUninitializedCapacity: utf8.count) { buffer in
      var count = 0
      for byte in utf8 where !isSeparator(byte) {
        buffer[count] = byte
        count += 1
      }
      return count
    }
  }

  private static func isE164(_ bytes: some Collection<UInt8>) -> Bool {
    guard bytes.first == UInt8(ascii: "+") else { return false }
    let digits = bytes.dropFirst()
    return e164DigitCounts.contains(digits.count) && digits.first != UInt8(ascii: "0")
      && digits.allSatisfy(ASCII.isDigit)
  }

  private static func isChinaMobile(_ bytes: some Collection<UInt8>) -> Bool {
    guard bytes.count == chinaMobileDigitCount, bytes.allSatisfy(ASCII.isDigit) else { return false }
    let second = bytes[bytes.index(after: bytes.startIndex)]
    return bytes.first == UInt8(ascii: "1") && (UInt8(ascii: "3")...UInt8(ascii: "9")).contains(second)
  }
}
