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
    guard let pattern else { return RuleOutcome(value: value, codes: codes(username.utf8, purpose: purpose)) }
    guard !username.isEmpty else { return RuleOutcome(value: value, codes: .required) }
    var codes = lengthCodes(ASCII.codePointCount(username.utf8), purpose: purpose)
    codes.insert(.invalidCharacters, if: !pattern.matches(username))
    return RuleOutcome(value: value, codes: codes)
  }

  /// The rule without a pattern, on the trimmed input's UTF-8 bytes.
  func codes(_ username: some Collection<UInt8>, purpose: ValidationPurpose) -> ValidationCodeSet {
    guard !username.isEmpty else { return .required }
    var length = 0
    var allowedCharacters = true
    for byte in username {
      if byte & 0xC0 != 0x80 { length += 1 }
      if !Self.isAllowed(byte) { allowedCharacters = false }
    }
    var codes = lengthCodes(length, purpose: purpose)
    codes.insert(.invalidCharacters, if: !allowedCharacters)
    return codes
  }

  private func lengthCodes(_ length: Int, purpose: ValidationPurpose) -> ValidationCodeSet {
    var codes = ValidationCodeSet()
    codes.insert(.tooShort, if: purpose == .register && length < minLength)
    codes.insert(.tooLong, if: length > maxLength)
    return codes
  }

  /// `[A-Za-z0-9_-]`; any byte of a multi-byte sequence is outside it.
  private static func isAllowed(_ byte: UInt8) -> Bool {
    ASCII.isAlphanumeric(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
  }
}
