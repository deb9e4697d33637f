/// Password rules. Passwords are never trimmed or truncated, and never reported back.
///
/// Register, `standard`: `required`, `too_short`, `too_long`, `invalid_characters`, `too_common`.
/// Register, `classic`: `required`, `too_short`, `too_long`, `invalid_characters`, `missing_letter`,
/// `missing_digit`. Login, either preset: `required`, `too_long`.
struct PasswordRule: Sendable {
  let preset: PasswordPreset
  let minLength: Int
  let maxLength: Int

  init(policy: ValidationPolicy) {
    preset = policy.passwordPreset
    minLength = policy.passwordMinLength
    maxLength = policy.passwordMaxLength
  }

  func check(_ password: String, purpose: ValidationPurpose) -> RuleOutcome {
    let codes = codes(
      Scan(password.utf8), purpose: purpose, isCommon: { CommonPasswords.contains(password) },
      hasNonASCIILetter: { Scan.hasLetter(password) })
    return RuleOutcome(value: nil, codes: codes)
  }

  /// The rule on a password already scanned; `isCommon` runs only for an ASCII password, `hasNonASCIILetter`
  /// only for one with no ASCII letter but some other character.
  func codes(
    _ scan: Scan, purpose: ValidationPurpose, isCommon: () -> Bool, hasNonASCIILetter: () -> Bool
  ) -> ValidationCodeSet {
    guard scan.length > 0 else { return .required }
    var codes = ValidationCodeSet()
    codes.insert(.tooLong, if: scan.length > maxLength)
    guard purpose == .register else { return codes }
    codes.insert(.tooShort, if: scan.length < minLength)
    codes.insert(.invalidCharacters, if: scan.hasControl)
    switch preset {
    case .standard:
      codes.insert(.tooCommon, if: !scan.hasNonASCII && isCommon())
    case .classic:
      codes.insert(.missingLetter, if: !(scan.hasASCIILetter || (scan.hasNonASCII && hasNonASCIILetter())))
      codes.insert(.missingDigit, if: !scan.hasDigit)
    }
    return codes
  }

  /// Everything the rules need, gathered in one pass over the UTF-8 bytes.
  struct Scan {
    var length = 0
    var hasControl = false
    var hasASCIILetter = false
    var hasDigit = false
    var hasNonASCII = false

    init(_ password: some Sequence<UInt8>) {
      for byte in password {
        if byte & 0xC0 != 0x80 { length += 1 }
        if byte >= 0x80 {
          hasNonASCII = true
        } else if ASCII.isLetter(byte) {
          hasASCIILetter = true
        } else if ASCII.isDigit(byte) {
          hasDigit = true
        } else if ASCII.isControl(byte) {
          hasControl = true
        }
      }
    }

    /// A letter is any Unicode letter (general category L), so `密码` counts as well as `a`.
    static func hasLetter(_ password: String) -> Bool {
      password.unicodeScalars.contains(where: Self.isLetter)
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: true
      default: false
      }
    }
  }
}
