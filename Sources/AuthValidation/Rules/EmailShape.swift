/// The state machine behind `EmailRule`'s format check, fed one character class at a time so the ASCII and the
/// any-script rules share every decision but which characters are allowed.
///
/// Local part: 1–64 octets of allowed characters, no leading, trailing or doubled dot. Domain: two or more
/// dot-separated labels of letters, digits and `-` (marks too beyond ASCII), none empty or starting or ending
/// with `-`, the last one 2–64 letters.
struct EmailShape {
  /// What one character is, as far as the shape cares.
  struct Symbol {
    enum Class { case at, dot, hyphen, letter, digit, mark, localOnly, forbidden }
    let kind: Class
    /// Its UTF-8 length, which the local part's octet limit counts.
    let octets: Int

    init(ascii byte: UInt8) {
      kind = Self.asciiClass(byte)
      octets = 1
    }

    init(_ scalar: Unicode.Scalar) {
      kind = scalar.isASCII ? Self.asciiClass(UInt8(scalar.value)) : Self.otherClass(scalar)
      octets = UTF8.width(scalar)
    }

    private static func asciiClass(_ byte: UInt8) -> Class {
      switch byte {
      case UInt8(ascii: "@"): .at
      case UInt8(ascii: "."): .dot
      case UInt8(ascii: "-"): .hyphen
      case UInt8(ascii: "_"), UInt8(ascii: "%"), UInt8(ascii: "+"): .localOnly
      default: ASCII.isLetter(byte) ? .letter : ASCII.isDigit(byte) ? .digit : .forbidden
      }
    }

    /// Beyond ASCII: letters, marks and digits of any script may stand in a domain label; other visible
    /// characters only in a local part; white space, controls and unassigned code points nowhere.
    private static func otherClass(_ scalar: Unicode.Scalar) -> Class {
      switch scalar.properties.generalCategory {
      case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
        .spaceSeparator:
        .forbidden
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: .letter
      case .nonspacingMark, .spacingMark, .enclosingMark: .mark
      case .decimalNumber: .digit
      default: .localOnly
      }
    }
  }

  private var inDomain = false
  private var localLength = 0
  private var previousWasDot = false
  private var labelLength = 0
  private var labelIsLetters = true
  private var previousWasHyphen = false
  private var completedLabels = 0

  /// False as soon as the address cannot be well formed.
  mutating func accept(_ symbol: Symbol) -> Bool {
    inDomain ? acceptInDomain(symbol) : acceptInLocalPart(symbol)
  }

  private mutating func acceptInLocalPart(_ symbol: Symbol) -> Bool {
    switch symbol.kind {
    case .at:
      guard localLength > 0, localLength <= EmailRule.maxLocalPartLength, !previousWasDot else { return false }
      inDomain = true
    case .dot:
      guard localLength > 0, !previousWasDot else { return false }
      previousWasDot = true
      localLength += 1
    case .forbidden:
      return false
    default:
      previousWasDot = false
      localLength += symbol.octets
    }
    return true
  }

  private mutating func acceptInDomain(_ symbol: Symbol) -> Bool {
    switch symbol.kind {
    case .dot:
      guard labelLength > 0, !previousWasHyphen else { return false }
      completedLabels += 1
      labelLength = 0
      labelIsLetters = true
    case .hyphen:
      guard labelLength > 0 else { return false }
      previousWasHyphen = true
      labelIsLetters = false
      labelLength += 1
    case .letter, .digit, .mark:
      previousWasHyphen = false
      labelIsLetters = labelIsLetters && symbol.kind != .digit
      labelLength += 1
    case .at, .localOnly, .forbidden:
      return false
    }
    return true
  }

  /// The final label is the top-level domain: letters only, which also rules out a trailing hyphen.
  var isComplete: Bool {
    inDomain && completedLabels > 0 && labelIsLetters && EmailRule.topLevelDomainLengths.contains(labelLength)
  }
}
