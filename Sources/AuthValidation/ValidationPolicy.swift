/// A profile's validation settings: the password preset, length limits and an optional username pattern.
///
/// Built once from the config. Lengths left `nil` follow the defaults: the preset's password range
/// (standard 8–128, classic 8–64) and 3–30 for usernames.
package struct ValidationPolicy: Sendable {
  package static let defaultUsernameLengthRange = 3...30

  /// The defaults, with the `standard` preset.
  package static let standard = ValidationPolicy(preset: .standard)
  /// The defaults, with the `classic` preset.
  package static let classic = ValidationPolicy(preset: .classic)

  package let passwordPreset: PasswordPreset
  package let passwordMinLength: Int
  package let passwordMaxLength: Int
  package let usernameMinLength: Int
  package let usernameMaxLength: Int
  /// Whether registration accepts email addresses in any script (RFC 6531); a login always does.
  package let emailUnicode: Bool
  /// Digits in a one-time code (the profile's `codes.length`).
  package private(set) var codeLength = 6
  /// Compiled once here so that a bad pattern fails at start-up, not on a request.
  let compiledUsernamePattern: UsernamePattern?

  /// A regular expression the whole trimmed username must match, replacing the default character rule.
  package var usernamePattern: String? { compiledUsernamePattern?.source }

  /// - Throws: `ValidationPolicyError` for a length below 1, a minimum above its maximum, or a pattern
  ///   that does not compile.
  package init(
    passwordPreset: PasswordPreset = .standard,
    passwordMinLength: Int? = nil,
    passwordMaxLength: Int? = nil,
    usernameMinLength: Int? = nil,
    usernameMaxLength: Int? = nil,
    usernamePattern: String? = nil,
    emailUnicode: Bool = true
  ) throws(ValidationPolicyError) {
    let passwordDefaults = passwordPreset.defaultLengthRange
    let usernameDefaults = Self.defaultUsernameLengthRange
    self.passwordPreset = passwordPreset
    self.passwordMinLength = try Self.checked(passwordMinLength ?? passwordDefaults.lowerBound, "passwordMinLength")
    self.passwordMaxLength = try Self.checked(passwordMaxLength ?? passwordDefaults.upperBound, "passwordMaxLength")
    self.usernameMinLength = try Self.checked(usernameMinLength ?? usernameDefaults.lowerBound, "usernameMinLength")
    self.usernameMaxLength = try Self.checked(usernameMaxLength ?? usernameDefaults.upperBound, "usernameMaxLength")
    try Self.checkOrder(self.passwordMinLength, self.passwordMaxLength, "passwordMinLength")
    try Self.checkOrder(self.usernameMinLength, self.usernameMaxLength, "usernameMinLength")
    self.emailUnicode = emailUnicode
    compiledUsernamePattern = try usernamePattern.map { pattern throws(ValidationPolicyError) in
      try UsernamePattern(pattern)
    }
  }

  /// The defaults cannot fail, so the static presets need no `try!`.
  private init(preset: PasswordPreset) {
    passwordPreset = preset
    passwordMinLength = preset.defaultLengthRange.lowerBound
    passwordMaxLength = preset.defaultLengthRange.upperBound
    usernameMinLength = Self.defaultUsernameLengthRange.lowerBound
    usernameMaxLength = Self.defaultUsernameLengthRange.upperBound
    compiledUsernamePattern = nil
    emailUnicode = true
  }

  /// The same policy checking codes of `length` digits (a profile's codes settings live apart from its
  /// validation settings, but a form's code field is validated with the rest of the form).
  package func withCodeLength(_ length: Int) -> ValidationPolicy {
    var policy = self
    policy.codeLength = length
    return policy
  }

  private static func checked(_ length: Int, _ setting: String) throws(ValidationPolicyError) -> Int {
    guard length >= 1 else { throw ValidationPolicyError(setting: setting, reason: .lengthBelowOne(length)) }
    return length
  }

  private static func checkOrder(_ minimum: Int, _ maximum: Int, _ setting: String) throws(ValidationPolicyError) {
    guard minimum <= maximum else {
      throw ValidationPolicyError(setting: setting, reason: .minimumAboveMaximum(minimum: minimum, maximum: maximum))
    }
  }
}
