/// Email rules: `required`, `too_long` (> 254), `invalid_format`; the same for register and login.
enum EmailRule {
  /// RFC 5321's limit on a forward path, less the angle brackets.
  static let maxLength = 254
  static let maxLocalPartLength = 64
  static let topLevelDomainLengths = 2...64

  /// - Parameter email: the input, already trimmed.
  static func check(_ email: Substring) -> RuleOutcome {
    guard !email.isEmpty else { return RuleOutcome(value: String(email), codes: .required) }
    var codes = ValidationCodeSet()
    codes.insert(.tooLong, if: ASCII.codePointCount(email.utf8) > maxLength)
    codes.insert(.invalidFormat, if: !isWellFormed(email.utf8))
    return RuleOutcome(value: normalized(email), codes: codes)
  }

  /// The address with its domain (everything after the first `@`) in ASCII lower case.
  ///
  /// Only the domain: the local part is case-sensitive in principle, and some servers treat it so.
  static func normalized(_ email: Substring) -> String {
    let utf8 = email.utf8
    guard let at = utf8.firstIndex(of: UInt8(ascii: "@")),
      utf8[at...].contains(where: ASCII.isUppercase)
    else { return String(email) }
    return String(decoding: utf8[..<at], as: UTF8.self) + ASCII.lowercased(utf8[at...])
  }

  /// `local@domain.tld`, checked in one pass over the bytes.
  ///
  /// Local part: 1–64 of `[A-Za-z0-9._%+-]`, no leading, trailing or doubled dot. Domain: two or more
  /// dot-separated labels of `[A-Za-z0-9-]`, none empty or starting or ending with `-`, the last one 2–64
  /// letters.
  static func isWellFormed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    var inDomain = false
    var localLength = 0
    var previousWasDot = false
    var labelLength = 0
    var labelIsLetters = true
    var previousWasHyphen = false
    var completedLabels = 0
    for byte in bytes {
      if !inDomain {
        if byte == UInt8(ascii: "@") {
          guard localLength > 0, localLength <= maxLocalPartLength, !previousWasDot else { return false }
          inDomain = true
        } else if byte == UInt8(ascii: ".") {
          guard localLength > 0, !previousWasDot else { return false }
          previousWasDot = true
          localLength += 1
        } else if isLocalPartByte(byte) {
          previousWasDot = false
          localLength += 1
        } else {
          return false
        }
      } else if byte == UInt8(ascii: ".") {
        guard labelLength > 0, !previousWasHyphen else { return false }
        completedLabels += 1
        labelLength = 0
        labelIsLetters = true
      } else if byte == UInt8(ascii: "-") {
        guard labelLength > 0 else { return false }
        previousWasHyphen = true
        labelIsLetters = false
        labelLength += 1
      } else if ASCII.isAlphanumeric(byte) {
        previousWasHyphen = false
        labelIsLetters = labelIsLetters && ASCII.isLetter(byte)
        labelLength += 1
      } else {
        return false
      }
    }
    // The final label is the top-level domain: letters only, which also rules out a trailing hyphen.
    return inDomain && completedLabels > 0 && labelIsLetters && topLevelDomainLengths.contains(labelLength)
  }

  private static func isLocalPartByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "%"), UInt8(ascii: "+"), UInt8(ascii: "-"): true
    default: ASCII.isAlphanumeric(byte)
    }
  }
}
