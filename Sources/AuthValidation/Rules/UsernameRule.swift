/// Username rules: `required`, `too_short` (register only), `too_long`, `invalid_characters`.
struct UsernameRule: Sendable {
  let minLength: Int
  let maxLength: Int
  /// Replaces the default `[A-Za-z0-9_-]` character rule when the profile sets one.
  let pattern: UsernamePattern?

  init(policy: ValidationPolicy) {
    minLength = policy.usernameMinLength
    maxLength = policy.usernameMaxLength
    pattern = policy.compiledUsernamePattern
  }

  /// - Parameter username: the input, already trimmed.
  func check(_ username: Substring, purpose: ValidationPurpose) -> RuleOutcome {
    let value = String(username)
    guard !username.isEmpty else { return RuleOutcome(value: value, codes: .required) }
    var length = 0
    var allowedCharacters = true
    for byte in username.utf8 {
      if byte & 0xC0 != 0x80 { length += 1 }
      if !Self.isAllowed(byte) { allowedCharacters = false }
    }
    var codes = ValidationCodeSet()
    codes.insert(.tooShort, if: purpose == .register && length < minLength)
    codes.insert(.tooLong, if: length > maxLength)
    if let pattern {
      codes.insert(.invalidCharacters, if: !pattern.matches(username))
    } else {
      codes.insert(.invalidCharacters, if: !allowedCharacters)
    }
    return RuleOutcome(value: value, codes: codes)
  }

  /// `[A-Za-z0-9_-]`; any byte of a multi-byte sequence is outside it.
  private static func isAllowed(_ byte: UInt8) -> Bool {
    ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
  }
}
