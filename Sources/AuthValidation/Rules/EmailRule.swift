/// Email rules: `required`, `too_long` (> 254), and for registration `invalid_format`.
///
/// A login only checks presence and length: the server decides which addresses exist, and refusing one it could
/// accept (an internationalized address, RFC 6531, or a shape we did not foresee) would lock its owner out.
enum EmailRule {
  /// RFC 5321's limit on a forward path, less the angle brackets.
  static let maxLength = 254
  /// RFC 5321's limit on a local part, in octets (RFC 6531 keeps it for UTF-8 local parts).
  static let maxLocalPartLength = 64
  static let topLevelDomainLengths = 2...64

  /// - Parameters:
  ///   - email: the input, already trimmed.
  ///   - unicode: registration accepts local parts and domains in any script (RFC 6531); false keeps them ASCII.
  static func check(_ email: Substring, purpose: ValidationPurpose, unicode: Bool) -> RuleOutcome {
    guard !email.isEmpty else { return RuleOutcome(value: String(email), codes: .required) }
    let codes = codes(codePoints: ASCII.codePointCount(email.utf8), purpose: purpose) {
      unicode ? isWellFormed(email.unicodeScalars) : isWellFormed(email.utf8)
    }
    return RuleOutcome(value: normalized(email), codes: codes)
  }

  /// The codes of a non-empty address of `codePoints` characters; `wellFormed` runs only for a registration.
  static func codes(codePoints: Int, purpose: ValidationPurpose, wellFormed: () -> Bool) -> ValidationCodeSet {
    var codes = ValidationCodeSet()
    codes.insert(.tooLong, if: codePoints > maxLength)
    if purpose == .register { codes.insert(.invalidFormat, if: !wellFormed()) }
    return codes
  }

  /// The address with its domain (everything after the first `@`) lower-cased.
  ///
  /// Only the domain: the local part is case-sensitive in principle, and some servers treat it so.
  static func normalized(_ email: Substring) -> String {
    let utf8 = email.utf8
    guard let at = utf8.firstIndex(of: UInt8(ascii: "@")) else { return String(email) }
    let domain = utf8[at...]
    if domain.allSatisfy({ $0 < 0x80 }) {
      guard domain.contains(where: ASCII.isUppercase) else { return String(email) }
      return String(decoding: utf8[..<at], as: UTF8.self) + ASCII.lowercased(domain)
    }
    // A domain in another script: Unicode's own lower case, as IDNA maps a domain before it is looked up.
    return String(decoding: utf8[..<at], as: UTF8.self) + String(decoding: domain, as: UTF8.self).lowercased()
  }

  /// `local@domain.tld` in ASCII, checked in one pass over the bytes (see `EmailShape`).
  static func isWellFormed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    var shape = EmailShape()
    for byte in bytes {
      guard shape.accept(EmailShape.Symbol(ascii: byte)) else { return false }
    }
    return shape.isComplete
  }

  /// The same shape with any script allowed (RFC 6531): a local part may hold any visible character beyond ASCII,
  /// a domain label letters, marks and digits of any script (IDNA U-labels), a top-level domain letters of any
  /// script.
  static func isWellFormed(_ scalars: Substring.UnicodeScalarView) -> Bool {
    var shape = EmailShape()
    for scalar in scalars {
      guard shape.accept(EmailShape.Symbol(scalar)) else { return false }
    }
    return shape.isComplete
  }
}
